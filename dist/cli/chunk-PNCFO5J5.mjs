import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a}from"./chunk-UEYJNS5H.mjs";import{c as l}from"./chunk-ZTLXJAVK.mjs";import{g as m}from"./chunk-OCWTDD7L.mjs";import{a as f}from"./chunk-AN3FC4KG.mjs";import{isAbsolute as u,relative as d,resolve as k}from"node:path";function h(e,i,o,s=t=>t){if(!(e instanceof f))return[];let t=l(i.env,i.cwd);return e.diagnostics.flatMap(n=>{let r=d(t,k(i.cwd,n.file)),p=r.startsWith("..")||u(r)?n.file:r.split("\\").join("/"),c=o.issue("error",s(`${n.message}${n.hint?`
hint: ${n.hint}`:""}`),{file:p,line:n.line,col:n.col});return c===void 0?[]:[c]})}function I(e,i,o){if(!(e instanceof f))return;let s=a(o,t=>i.stdout(`${t}
`));return m(e,i.env,s),t=>s.mask(t)}export{h as a,I as b};
