import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as t}from"./chunk-6DCNIRPS.mjs";function m(i,o,r={}){return new t({...r,onSecret:s=>{let e=i.mask(s);e!==void 0&&o(e)}})}export{m as a};
