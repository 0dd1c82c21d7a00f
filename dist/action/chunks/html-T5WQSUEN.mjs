import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ra as a}from"./chunk-OOM3KET4.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
