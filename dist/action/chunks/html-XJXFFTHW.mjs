import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{_ as a}from"./chunk-THYVFWT3.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
