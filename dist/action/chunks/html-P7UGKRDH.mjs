import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{ba as a}from"./chunk-WXVSGMV7.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
