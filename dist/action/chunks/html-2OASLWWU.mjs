import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ua as a}from"./chunk-YO422GFG.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
