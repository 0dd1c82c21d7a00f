import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{$ as a}from"./chunk-2O5IQ7RI.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
