import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{sa as a}from"./chunk-NXUKM76P.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
