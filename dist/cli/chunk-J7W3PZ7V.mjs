import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{t}from"./chunk-D4Y5VCNB.mjs";import{performance as a}from"node:perf_hooks";function s(i=Date.now()){let m=Date.now(),e=i-m,o=0;return{now:()=>Date.now()+e,advanced:()=>o,sleep:(n,r)=>new Promise((c,l)=>{if(r.aborted)return l(r.reason);e+=n,o+=n,setImmediate(c)})}}function u(){return Math.floor(a.timeOrigin+a.now())}function p(){return{now:u,sleep:t}}export{s as a,u as b,p as c};
