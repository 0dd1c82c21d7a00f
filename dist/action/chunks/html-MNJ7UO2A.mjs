import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{pa as a}from"./chunk-QNXTR2W3.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
