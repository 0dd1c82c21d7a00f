import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-CRHADOS3.mjs";import"./chunks/chunk-CKD2QAJM.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-CH653QY5.mjs";import"./chunks/chunk-ODNHXY3O.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
