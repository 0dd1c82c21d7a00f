import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{aa as a}from"./chunk-4Z57QO2J.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
