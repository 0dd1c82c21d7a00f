import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ya as a}from"./chunk-FF22XSVJ.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
