import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{wa as a}from"./chunk-3OQQJU4B.mjs";import"./chunk-7ZQ6ZC54.mjs";import"./chunk-EBISEZZZ.mjs";export{a as renderHtml};
