import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as s}from"./chunk-P6LZNOF7.mjs";function o(e,i){let t=new Set;return n=>{if(t.has(n))return;t.add(n);let r=e.mask(n);r!==void 0&&i(r)}}function m(e,i,t={}){return new s({...t,onSecret:o(e,i)})}export{o as a,m as b};
