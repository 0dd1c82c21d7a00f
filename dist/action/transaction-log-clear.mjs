import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as a}from"./chunks/chunk-HIK4KRIJ.mjs";import"./chunks/chunk-5CHPODKQ.mjs";import"./chunks/chunk-3WRXAH4B.mjs";import"./chunks/chunk-YJCZRMYB.mjs";async function r(){await a("transaction-log-clear")}i(import.meta.url)&&await r();export{r as run};
