import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as v}from"./chunk-TDSVENUV.mjs";import{a as E}from"./chunk-QT2ATPGP.mjs";import{a as y}from"./chunk-5UQWL3MG.mjs";import"./chunk-ZC4UJPM5.mjs";import{k as f,l as u}from"./chunk-W742BHX6.mjs";import"./chunk-Y34CK2QN.mjs";import"./chunk-ZHOUJOTF.mjs";import{b as d}from"./chunk-RTLWT6XR.mjs";import"./chunk-AKUT4G6C.mjs";import{a as h}from"./chunk-QSJG675I.mjs";import{a as o}from"./chunk-B6ZPHE6B.mjs";import"./chunk-VTTJQUEY.mjs";import"./chunk-TM3YL7W6.mjs";import"./chunk-HELPYNUO.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-JQWCGJAR.mjs";import"./chunk-TR2GVION.mjs";import{a as s,b as l,c as p,d as c,f as m}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";var C=`Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does: every secrets.* and env.* is set,
                     and a server is given (ENGINE_URL or a servers: block)
  --emulator         as for run --emulator: server credentials need not be set
  --ci NAME          annotate problems in a CI system's syntax: ${d.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`,A={var:{type:"string",multiple:!0},emulator:{type:"boolean"},"check-env":{type:"boolean"},ci:{type:"string"}};async function F(g,t){let{values:r,positionals:a}=h("validate",g,A);if(r.help)return t.stdout(`${C}
`),s.ok;if(a.length===0)throw new p("BAD_ARGUMENTS","validate: name at least one pipeline FILE",{hint:"enginectl validate pipelines/*.yml"});let I=y(t,r.ci),b=u(r.var),n=s.ok;for(let i of a)try{let{pipeline:e}=await f(i,r.emulator?{...t,env:E(t.env)}:t,{vars:b,emulator:r.emulator,checkEnv:r["check-env"]===!0});t.stdout(`${o(i)}: valid (${e.steps.length} step${e.steps.length===1?"":"s"})
`)}catch(e){if(!(e instanceof l)||e instanceof c)throw e;for(let k of v(e,t,I))t.stdout(`${k}
`);t.stderr(`${o(m(e))}
  code: ${e.code}
`),n=Math.max(n,e.exitCode)}return n}export{A as OPTIONS,C as VALIDATE_HELP,F as validateCommand};
