import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as c}from"./chunk-NXN3HG5N.mjs";import"./chunk-LA2JWRGE.mjs";import{a as u}from"./chunk-QT2ATPGP.mjs";import{b as v,c as d}from"./chunk-3YBI77HZ.mjs";import"./chunk-OQ2PGVFQ.mjs";import"./chunk-W6ITXQKC.mjs";import{a}from"./chunk-DJA6MMAV.mjs";import"./chunk-X3N6CKWG.mjs";import{a as h}from"./chunk-QXZQ23ZW.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-7SUEU66B.mjs";import"./chunk-MANBGSYX.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-5AIDX52M.mjs";import{a as s,b as l,c as p,d as m}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";var y=`Usage: enginectl validate FILE... [options]

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

Exit codes: 0 every file is valid, 2 any is not.`;async function w(f,e){let{values:r,positionals:o}=h("validate",f,{var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"}});if(r.help)return e.stdout(`${y}
`),s.ok;if(o.length===0)throw new p("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let E=d(r.var),n=s.ok;for(let i of o)try{let{pipeline:t}=await v(i,r.emulator?{...e,env:u(e.env)}:e,{vars:E,emulator:r.emulator,checkEnv:r["check-env"]===!0});e.stdout(`${a(i)}: valid (${t.steps.length} step${t.steps.length===1?"":"s"})
`)}catch(t){if(!(t instanceof l))throw t;for(let g of c(t,e))e.stdout(`${g}
`);e.stderr(`${a(m(t))}
`),n=Math.max(n,t.exitCode)}return n}export{y as VALIDATE_HELP,w as validateCommand};
