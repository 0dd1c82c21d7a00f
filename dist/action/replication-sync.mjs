import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as r}from"./chunks/chunk-ZW3TVXEV.mjs";import"./chunks/chunk-T5MJHHSR.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-5WREHOEA.mjs";import"./chunks/chunk-UNRMNPRD.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function t(){await r("replication-sync")}i(import.meta.url)&&await t();export{t as run};
