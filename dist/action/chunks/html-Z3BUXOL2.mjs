import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{W as a}from"./chunk-LKSRGIJU.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
