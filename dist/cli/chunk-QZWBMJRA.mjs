import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{g as i}from"./chunk-F7SLGPBJ.mjs";import{c as o}from"./chunk-LDHZQHL4.mjs";async function c(a,r,n){let e;try{e=await n.readFile(r)}catch(t){throw new o("BAD_JOURNAL",`${a}: cannot read ${r} (${t.code??t.message})`,{hint:"give the file a run wrote with --journal"})}return i(e,r)}export{c as a};
