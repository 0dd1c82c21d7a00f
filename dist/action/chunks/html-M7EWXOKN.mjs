import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{sa as a}from"./chunk-Y6OKCKJ2.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
