import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-BC4FH42R.mjs";import"./chunks/chunk-2OVQNKFZ.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-THRKNVVP.mjs";import"./chunks/chunk-5HSG26EE.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function a(){await t("system-update")}i(import.meta.url)&&await a();export{a as run};
