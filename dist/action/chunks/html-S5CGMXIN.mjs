import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{va as a}from"./chunk-RLNSNW6P.mjs";import"./chunk-YJCZRMYB.mjs";export{a as renderHtml};
