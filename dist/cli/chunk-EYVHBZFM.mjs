import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as l}from"./chunk-E5H5WF5W.mjs";import{g as a}from"./chunk-B3SUDAHC.mjs";import{b as m}from"./chunk-J3JAVBK2.mjs";import{a as f}from"./chunk-NBENTZOW.mjs";import{isAbsolute as u,relative as k,resolve as d}from"node:path";function h(e,i,o,s=t=>t){if(!(e instanceof f))return[];let t=l(i.env,i.cwd);return e.diagnostics.flatMap(n=>{let r=k(t,d(i.cwd,n.file)),p=r.startsWith("..")||u(r)?n.file:r.split("\\").join("/"),c=o.issue("error",s(`${n.message}${n.hint?`
hint: ${n.hint}`:""}`),{file:p,line:n.line,col:n.col});return c===void 0?[]:[c]})}function I(e,i,o){if(!(e instanceof f))return;let s=new m({onSecret:t=>{let n=o.mask(t);n&&i.stdout(`${n}
`)}});return a(e,i.env,s),t=>s.mask(t)}export{h as a,I as b};
