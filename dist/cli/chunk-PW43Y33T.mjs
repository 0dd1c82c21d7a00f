import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
function l(o,r){let e,t=1/0;for(let i of r){let n=f(o.toLowerCase(),i.toLowerCase());n<t&&(e=i,t=n)}return e!==void 0&&t<=Math.max(2,Math.floor(o.length/3))?e:void 0}function f(o,r){let e=Array.from({length:r.length+1},(t,i)=>i);for(let t=1;t<=o.length;t++){let i=e[0];e[0]=t;for(let n=1;n<=r.length;n++){let s=Math.min(e[n]+1,e[n-1]+1,i+(o[t-1]===r[n-1]?0:1),t>1&&n>1&&o[t-1]===r[n-2]&&o[t-2]===r[n-1]?i:1/0);i=e[n],e[n]=s}}return e[r.length]}export{l as a};
