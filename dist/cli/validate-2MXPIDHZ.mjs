import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as m}from"./chunk-ZKHZABDF.mjs";import{b as c,c as v}from"./chunk-7NAUKINH.mjs";import"./chunk-STZBV4BT.mjs";import"./chunk-SFYQ7R7E.mjs";import{a as h}from"./chunk-QT2ATPGP.mjs";import{a as d}from"./chunk-E4M3T3EB.mjs";import"./chunk-IGA4IKHF.mjs";import"./chunk-PZS4FPBV.mjs";import"./chunk-FWC5MIAS.mjs";import"./chunk-ZHJZE6KQ.mjs";import"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as s,b as i,c as l,d as p}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var g=`Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does: every secrets.* and env.* is set,
                     and a server is given (ENGINE_URL or a servers: block)
  --emulator         as for run --emulator: server credentials need not be set
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`;async function A(u,e){let{values:r,positionals:a}=d("validate",u,{var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"}});if(r.help)return e.stdout(`${g}
`),s.ok;if(a.length===0)throw new l("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let f=v(r.var),n=s.ok;for(let o of a)try{let{pipeline:t}=await c(o,r.emulator?{...e,env:h(e.env)}:e,{vars:f,emulator:r.emulator,checkEnv:r["check-env"]===!0});e.stdout(`${o}: valid (${t.steps.length} step${t.steps.length===1?"":"s"})
`)}catch(t){if(!(t instanceof i))throw t;for(let E of m(t,e))e.stdout(`${E}
`);e.stderr(`${p(t)}
`),n=Math.max(n,t.exitCode)}return n}export{g as VALIDATE_HELP,A as validateCommand};
