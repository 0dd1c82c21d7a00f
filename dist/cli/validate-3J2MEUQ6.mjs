import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as A,b as L}from"./chunk-PNCFO5J5.mjs";import{a as P}from"./chunk-QT2ATPGP.mjs";import{a as N}from"./chunk-ALQKF2HS.mjs";import{a as U}from"./chunk-CRCR5UPE.mjs";import{a as C}from"./chunk-UEYJNS5H.mjs";import"./chunk-ZTLXJAVK.mjs";import{b as g}from"./chunk-5S5YKYQC.mjs";import{a as x,b as M}from"./chunk-7VYCZVKY.mjs";import{m as w,n as S}from"./chunk-NECUPUWM.mjs";import"./chunk-6IEEONUA.mjs";import"./chunk-JTOROTH4.mjs";import{a as O}from"./chunk-DY4SYJHE.mjs";import"./chunk-OCWTDD7L.mjs";import"./chunk-B5B6H6SZ.mjs";import"./chunk-6DCNIRPS.mjs";import{d as c}from"./chunk-U4ZAGPRP.mjs";import{h as $}from"./chunk-HXLWJUD2.mjs";import{a as b}from"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import{r as I}from"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-Q552WKUS.mjs";import{a as f,b as u,c as E,d as k,f as y}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";function R(n,e,r,a=!1){let{contexts:o,servers:m}=M(n,e,r);for(let i of N(n,m,o,x(n,$)))a||I(i)}var F=`Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does before its first call: every
                     secrets.* and env.* is set, a server is given (ENGINE_URL or a servers:
                     block), and each server a step calls can be called (its URL, as resolved;
                     no credentials over plain http:// to another host), in run's words
  --emulator         as for run --emulator: server credentials need not be set
  --ci NAME          annotate problems in a CI system's syntax: ${g.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`,T={var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"},ci:{type:"string"}};async function re(n,e){let{values:r,positionals:a}=O("validate",n,T);if(r.help)return e.stdout(`${F}
`),f.ok;if(a.length===0)throw new E("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let o=U(e,r.ci),m=S(r.var),i=r.emulator?P(e.env):e.env,v=C(o,s=>e.stdout(`${s}
`)),p=f.ok;for(let s of a)try{let{pipeline:t}=await w(s,{...e,env:i},{vars:m,emulator:r.emulator,checkEnv:r["check-env"]===!0});r["check-env"]&&R(t,i,v,r.emulator===!0),e.stdout(`${c(s)}: valid (${t.steps.length} step${t.steps.length===1?"":"s"})
`)}catch(t){if(!(t instanceof u)||t instanceof k)throw t;let d=L(t,e,o),h=l=>v.mask(d?d(l):l);for(let l of A(t,e,o,h))e.stdout(`${l}
`);let _=t instanceof b?"":`${c(s)}: `;e.stderr(`${_}${c(y(t,h))}
  code: ${t.code}
`),p=Math.max(p,t.exitCode)}return p}export{T as OPTIONS,F as VALIDATE_HELP,re as validateCommand};
