import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-6O6QWVME.mjs";import"./chunks/chunk-4UBN5PGJ.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-JPBRQTH6.mjs";import"./chunks/chunk-262JCEJS.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function n(){await t("enginectl")}i(import.meta.url)&&await n();export{n as run};
