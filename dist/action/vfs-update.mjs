import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-P357A6HK.mjs";import"./chunks/chunk-ODQF56JU.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-FHRXDRMW.mjs";import"./chunks/chunk-UFRJUJ6W.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function a(){await t("vfs-update")}i(import.meta.url)&&await a();export{a as run};
