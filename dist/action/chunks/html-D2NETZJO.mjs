import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ra as a}from"./chunk-S26SZFTQ.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
