import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{Aa as a}from"./chunk-HHA3JZ2O.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
