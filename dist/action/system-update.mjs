import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-4JYBCUM7.mjs";import"./chunks/chunk-RHV7MYG5.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-GV6EGQSV.mjs";import"./chunks/chunk-TF24FBBW.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function a(){await t("system-update")}i(import.meta.url)&&await a();export{a as run};
