import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-LNM6TJX5.mjs";import"./chunks/chunk-3BGXIIQK.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-5XQXBAK6.mjs";import"./chunks/chunk-UJ3MC6JA.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
