import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-BG42BL5D.mjs";import"./chunks/chunk-RCHY5SM2.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-NKURZI5U.mjs";import"./chunks/chunk-PS5FMJIM.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
