import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var s=/(\d+)(ms|h|m|s)/g,u={ms:1,s:1e3,m:6e4,h:36e5};function i(t){let n=t.trim();if(!/^(\d+(ms|h|m|s))+$/.test(n))return;let r=0;for(let[,o,e]of n.matchAll(s))r+=Number(o)*u[e];return r}function c(t){if(t<1e3)return`${Math.round(t)}ms`;if(t<6e4)return`${(t/1e3).toFixed(t%1e3===0?0:1)}s`;let n=Math.round(t/1e3),r=Math.floor(n/3600),o=Math.floor(n%3600/60),e=n%60;return[r?`${r}h`:"",o?`${o}m`:"",e?`${e}s`:""].join("")||"0s"}export{i as a,c as b};
