import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-IT7BEV3J.mjs";import"./chunks/chunk-SKAX65DD.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-2AHGZPJQ.mjs";import"./chunks/chunk-4QCD6UGW.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function a(){await t("system-update")}i(import.meta.url)&&await a();export{a as run};
