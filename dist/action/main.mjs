import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-JRQXRN5E.mjs";import"./chunks/chunk-O27ITSG7.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-BL7IKFH6.mjs";import"./chunks/chunk-5EXZETFE.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function n(){await t("enginectl")}i(import.meta.url)&&await n();export{n as run};
