import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as r}from"./chunks/chunk-FXDXRT3M.mjs";import"./chunks/chunk-EO5Z7G7B.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-TN5A4OQW.mjs";import"./chunks/chunk-5KE36XWV.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function t(){await r("replication-sync")}i(import.meta.url)&&await t();export{t as run};
