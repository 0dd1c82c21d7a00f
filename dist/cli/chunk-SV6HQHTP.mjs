import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{f as a,l as i}from"./chunk-S43TVTXX.mjs";import{c as n}from"./chunk-AI5N4DLN.mjs";async function c(l,r,e){let t;try{t=await e.readFile(r)}catch(o){throw new n("BAD_JOURNAL",`${l}: cannot read ${r} (${o.code??o.message})`,{hint:"give the file a run wrote with --journal"})}return i(t,r,a(e.env))}export{c as a};
