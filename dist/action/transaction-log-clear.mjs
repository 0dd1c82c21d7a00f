import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-4JYBCUM7.mjs";import"./chunks/chunk-RHV7MYG5.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-GV6EGQSV.mjs";import"./chunks/chunk-TF24FBBW.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
