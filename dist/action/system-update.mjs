import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-2MVODWSB.mjs";import"./chunks/chunk-D7XEQV4R.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-UJF5WHTQ.mjs";import"./chunks/chunk-RJW2RNOF.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function a(){await t("system-update")}i(import.meta.url)&&await a();export{a as run};
