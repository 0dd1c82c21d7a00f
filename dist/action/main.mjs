import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-2CIQQNGT.mjs";import"./chunks/chunk-EPQLQOO2.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-3OQQJU4B.mjs";import"./chunks/chunk-7ZQ6ZC54.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function n(){await t("enginectl")}i(import.meta.url)&&await n();export{n as run};
