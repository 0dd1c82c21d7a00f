import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as u,b as h}from"./chunk-EYVHBZFM.mjs";import{a as k}from"./chunk-QT2ATPGP.mjs";import{a as I}from"./chunk-AT7XPZ3T.mjs";import"./chunk-E5H5WF5W.mjs";import{b as f}from"./chunk-O24G6PQ2.mjs";import{l as E,m as y}from"./chunk-TKSCFCFP.mjs";import"./chunk-SOGTZVS6.mjs";import"./chunk-KZHP2SCZ.mjs";import{a as g}from"./chunk-DY4SYJHE.mjs";import"./chunk-B3SUDAHC.mjs";import"./chunk-IIMVO2C7.mjs";import"./chunk-J3JAVBK2.mjs";import{d as o}from"./chunk-W3YLBX4Z.mjs";import"./chunk-VZBMWS65.mjs";import"./chunk-NBENTZOW.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-K5ISAZJV.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-Q552WKUS.mjs";import{a as s,b as p,c as m,d,f as v}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var L=`Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does: every secrets.* and env.* is set,
                     and a server is given (ENGINE_URL or a servers: block)
  --emulator         as for run --emulator: server credentials need not be set
  --ci NAME          annotate problems in a CI system's syntax: ${f.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`,x={var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"},ci:{type:"string"}};async function S(b,t){let{values:r,positionals:a}=g("validate",b,x);if(r.help)return t.stdout(`${L}
`),s.ok;if(a.length===0)throw new m("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let i=I(t,r.ci),C=y(r.var),n=s.ok;for(let l of a)try{let{pipeline:e}=await E(l,r.emulator?{...t,env:k(t.env)}:t,{vars:C,emulator:r.emulator,checkEnv:r["check-env"]===!0});t.stdout(`${o(l)}: valid (${e.steps.length} step${e.steps.length===1?"":"s"})
`)}catch(e){if(!(e instanceof p)||e instanceof d)throw e;let c=h(e,t,i);for(let A of u(e,t,i,c))t.stdout(`${A}
`);t.stderr(`${o(v(e,c))}
  code: ${e.code}
`),n=Math.max(n,e.exitCode)}return n}export{x as OPTIONS,L as VALIDATE_HELP,S as validateCommand};
