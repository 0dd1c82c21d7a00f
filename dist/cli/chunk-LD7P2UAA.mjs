import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as s}from"./chunk-S7SKBZS3.mjs";function o(e,i){let t=new Set;return n=>{if(t.has(n))return;t.add(n);let r=e.mask(n);r!==void 0&&i(r)}}function m(e,i,t={}){return new s({...t,onSecret:o(e,i)})}export{o as a,m as b};
