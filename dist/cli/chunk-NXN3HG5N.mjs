import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as r}from"./chunk-LA2JWRGE.mjs";import{a as s}from"./chunk-SSIFJIM6.mjs";import{isAbsolute as a,relative as p,resolve as u}from"node:path";function m(t,i){return t.GITHUB_WORKSPACE??t.BUILD_SOURCESDIRECTORY??t.CI_PROJECT_DIR??i}function R(t,i){if(!(t instanceof s))return[];let c=r(i.env),l=m(i.env,i.cwd);return t.diagnostics.flatMap(n=>{let e=p(l,u(i.cwd,n.file)),f=e.startsWith("..")||a(e)?n.file:e.split("\\").join("/"),o=c.issue("error",`${n.message}${n.hint?`
hint: ${n.hint}`:""}`,{file:f,line:n.line,col:n.col});return o===void 0?[]:[o]})}export{R as a};
