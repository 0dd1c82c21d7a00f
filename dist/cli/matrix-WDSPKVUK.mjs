import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as v}from"./chunk-PFZCSPV4.mjs";import{a as g}from"./chunk-QT2ATPGP.mjs";import{e as d}from"./chunk-ZTLXJAVK.mjs";import"./chunk-5S5YKYQC.mjs";import{m as u,n as c}from"./chunk-NECUPUWM.mjs";import"./chunk-6IEEONUA.mjs";import"./chunk-JTOROTH4.mjs";import{a as w}from"./chunk-DY4SYJHE.mjs";import"./chunk-B5B6H6SZ.mjs";import{d as x}from"./chunk-U4ZAGPRP.mjs";import{g as f}from"./chunk-HXLWJUD2.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-Q552WKUS.mjs";import{a as m,c as a}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var $=`Usage: enginectl matrix FILE [--step ID]

Prints a step's matrix as JSON, {"include": [{"target": "prod"}, ...]}, for a CI system's job
matrix (GitHub: strategy.matrix: \${{ fromJSON(needs.plan.outputs.matrix) }}). Each job then
runs its instance with enginectl run FILE --only KEY=VALUE.

Options:
  --step ID          the step (default: the only step with a matrix, or the
                     matrix every step with one shares)
  --var NAME=VALUE   a var the file reads (repeatable)
  --emulator         validate as run --emulator would
  -h, --help         show this help

Exit codes: 0, 2 invalid input or no such matrix.`,I={step:{type:"string"},var:{type:"string",multiple:!0},emulator:{type:"boolean"}};async function L(E,r){let{values:e,positionals:o}=w("matrix",E,I);if(e.help)return r.stdout(`${$}
`),m.ok;if(o.length!==1)throw new a("BAD_ARGUMENTS",`matrix: expected one pipeline FILE, got ${o.length}`);let{pipeline:l}=await u(o[0],e.emulator?{...r,env:g(r.env)}:r,{vars:c(e.var),emulator:e.emulator,checkEnv:!1}),n=l.steps.filter(t=>t.matrix),i;if(e.step!==void 0){if(i=l.steps.find(t=>t.id===e.step),!i)throw new a("NO_SUCH_STEP",`matrix: no step with id ${e.step}`,{hint:`steps with a matrix: ${n.map(t=>t.id??`#${t.index+1}`).join(", ")||"none"}`});if(!i.matrix)throw new a("NO_MATRIX",`matrix: step ${e.step} has no matrix`)}else{if(n.length===0)throw new a("NO_MATRIX",`matrix: no step of ${o[0]} has a matrix`);if(!(new Set(n.map(s=>JSON.stringify(s.matrix))).size===1))throw new a("AMBIGUOUS_MATRIX",`matrix: ${n.length} steps have a matrix, not the same one`,{hint:`name one with --step: ${n.map(s=>s.id??`(step ${s.index+1} has no id)`).join(", ")}`});i=n[0]}let p=f(i.matrix);r.stdout(`${v({include:p},0)}
`);let h=d(p.length);if(h){let t=i.id??`${i.index+1}`;r.stderr(`enginectl: warning: step ${x(t)}'s matrix is ${p.length.toLocaleString("en")} jobs; ${h}
  hint: split the fleet across jobs: a job per wave or per part of the inventory, each with its --only
`)}return m.ok}export{$ as MATRIX_HELP,I as OPTIONS,L as matrixCommand};
