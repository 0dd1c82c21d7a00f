import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as e}from"./chunk-EBISEZZZ.mjs";var o=e((r,t)=>{t.exports=function(){throw new Error("HTTP/2 is not built into enginectl: the server chose h2 though it was not offered")}});export{o as a};
