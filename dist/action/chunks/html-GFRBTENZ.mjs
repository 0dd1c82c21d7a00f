import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{W as a}from"./chunk-M26ZFEJG.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
