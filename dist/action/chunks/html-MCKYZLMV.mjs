import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ra as a}from"./chunk-Q54BCUGB.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
