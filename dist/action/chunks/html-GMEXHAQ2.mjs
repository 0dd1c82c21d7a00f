import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{Aa as a}from"./chunk-7C3AHJGI.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
