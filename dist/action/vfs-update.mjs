import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i,b as t}from"./chunks/chunk-76JXBMJ3.mjs";import"./chunks/chunk-5CHPODKQ.mjs";import"./chunks/chunk-HHA3JZ2O.mjs";import"./chunks/chunk-YJCZRMYB.mjs";async function a(){await t("vfs-update")}i(import.meta.url)&&await a();export{a as run};
