import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{wa as a}from"./chunk-DKAM5IPZ.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
