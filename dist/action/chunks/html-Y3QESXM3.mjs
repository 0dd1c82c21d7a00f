import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{Ba as a}from"./chunk-3WRXAH4B.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
