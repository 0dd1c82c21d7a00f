import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ua as a}from"./chunk-EVQUAHHQ.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
