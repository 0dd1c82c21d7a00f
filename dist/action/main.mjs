import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-B3OP4EYR.mjs";import"./chunks/chunk-BDDN4QHF.mjs";import"./chunks/chunk-5HLMXX7D.mjs";import"./chunks/chunk-6BTUWR3N.mjs";import"./chunks/chunk-UNRMNPRD.mjs";import"./chunks/chunk-EBISEZZZ.mjs";async function n(){await t("enginectl")}i(import.meta.url)&&await n();export{n as run};
