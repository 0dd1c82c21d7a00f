import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{j as m}from"./chunk-VZBMWS65.mjs";import{e as n,l as o}from"./chunk-7BZLWKRS.mjs";function p(e,t,i,r){if(!(e.name instanceof o))return`${e.name}${e.matrix?m(t):""}`;try{return r.mask(n(e.name.resolve({contexts:{...i,matrix:t}})))}catch{return r.mask(e.name.source)}}export{p as a};
