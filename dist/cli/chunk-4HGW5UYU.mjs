import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as n}from"./chunk-XU4XB32F.mjs";function s(r){try{return r?JSON.parse(r.toString("utf8")):void 0}catch{return}}function c(r,t,o,u,f,i){let e=u.safeParse(s(o));if(!e.success)throw new n("STORE_DAMAGED",`${r.url}: ${t} is not ${f} of enginectl`,{hint:i});return e.data}export{s as a,c as b};
