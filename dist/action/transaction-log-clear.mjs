import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-BC4FH42R.mjs";import"./chunks/chunk-2OVQNKFZ.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-THRKNVVP.mjs";import"./chunks/chunk-5HSG26EE.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
