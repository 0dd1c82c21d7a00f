import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ca as a}from"./chunk-FXOT4ZUN.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
