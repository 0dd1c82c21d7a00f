import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as d}from"./chunk-EGXSE6FR.mjs";import{a as E}from"./chunk-QT2ATPGP.mjs";import{a as y}from"./chunk-5DZBVWNG.mjs";import{e as f,f as u}from"./chunk-WBG2FU5P.mjs";import"./chunk-HB2E3DM4.mjs";import"./chunk-XP36Q324.mjs";import"./chunk-SFBJ47HQ.mjs";import"./chunk-QPHWK2IS.mjs";import"./chunk-ODKN3ZZ4.mjs";import{b as v}from"./chunk-XJSAWOAF.mjs";import{a as h}from"./chunk-DDBPXRCH.mjs";import{a as o}from"./chunk-G6IUI72E.mjs";import"./chunk-KQJFZZ32.mjs";import"./chunk-TYBMTELL.mjs";import"./chunk-7QNP6ON6.mjs";import"./chunk-FVOHT4EB.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-5AIDX52M.mjs";import{a as s,b as l,c as p,d as c,e as m}from"./chunk-JI3UUNSM.mjs";import"./chunk-HDDVMAG4.mjs";var C=`Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does: every secrets.* and env.* is set,
                     and a server is given (ENGINE_URL or a servers: block)
  --emulator         as for run --emulator: server credentials need not be set
  --ci NAME          annotate problems in a CI system's syntax: ${v.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`,A={var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"},ci:{type:"string"}};async function F(g,e){let{values:r,positionals:a}=h("validate",g,A);if(r.help)return e.stdout(`${C}
`),s.ok;if(a.length===0)throw new p("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let I=y(e,r.ci),b=u(r.var),n=s.ok;for(let i of a)try{let{pipeline:t}=await f(i,r.emulator?{...e,env:E(e.env)}:e,{vars:b,emulator:r.emulator,checkEnv:r["check-env"]===!0});e.stdout(`${o(i)}: valid (${t.steps.length} step${t.steps.length===1?"":"s"})
`)}catch(t){if(!(t instanceof l)||t instanceof c)throw t;for(let k of d(t,e,I))e.stdout(`${k}
`);e.stderr(`${o(m(t))}
`),n=Math.max(n,t.exitCode)}return n}export{A as OPTIONS,C as VALIDATE_HELP,F as validateCommand};
