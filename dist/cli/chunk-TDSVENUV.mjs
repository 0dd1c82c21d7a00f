import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as s}from"./chunk-ZC4UJPM5.mjs";import{a as r}from"./chunk-HELPYNUO.mjs";import{isAbsolute as m,relative as p,resolve as a}from"node:path";function w(e,i,l){if(!(e instanceof r))return[];let c=s(i.env,i.cwd);return e.diagnostics.flatMap(t=>{let n=p(c,a(i.cwd,t.file)),f=n.startsWith("..")||m(n)?t.file:n.split("\\").join("/"),o=l.issue("error",`${t.message}${t.hint?`
hint: ${t.hint}`:""}`,{file:f,line:t.line,col:t.col});return o===void 0?[]:[o]})}export{w as a};
