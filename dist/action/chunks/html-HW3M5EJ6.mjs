import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{X as a}from"./chunk-FF7FHPG5.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
