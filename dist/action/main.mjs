import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-HIK4KRIJ.mjs";import"./chunks/chunk-5CHPODKQ.mjs";import"./chunks/chunk-3WRXAH4B.mjs";import"./chunks/chunk-YJCZRMYB.mjs";async function n(){await t("enginectl")}i(import.meta.url)&&await n();export{n as run};
