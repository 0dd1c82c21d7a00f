import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{la as a}from"./chunk-PS67T66R.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
