import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as d,c as f}from"./chunk-PG2ELPIS.mjs";import"./chunk-EG2DGJOZ.mjs";import"./chunk-DZYNQJ4A.mjs";import{a as g}from"./chunk-QT2ATPGP.mjs";import{a as c}from"./chunk-E4M3T3EB.mjs";import{a as u}from"./chunk-SDB6N7MJ.mjs";import{a as x}from"./chunk-EMABYJ3B.mjs";import"./chunk-PHMWQJ52.mjs";import"./chunk-ZHJZE6KQ.mjs";import"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as p,c as a}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var w=`Usage: enginectl matrix FILE [--step ID]

Prints a step's matrix as JSON, {"include": [{"target": "prod"}, ...]}, for a CI system's job
matrix (GitHub: strategy.matrix: \${{ fromJSON(needs.plan.outputs.matrix) }}). Each job then
runs its instance with enginectl run FILE --only KEY=VALUE.

Options:
  --step ID          the step (default: the only step with a matrix)
  --var NAME=VALUE   a var the file reads (repeatable)
  --emulator         validate as run --emulator would
  -h, --help         show this help

Exit codes: 0, 2 invalid input or no such matrix.`;async function L(s,r){let{values:e,positionals:o}=c("matrix",s,{step:{type:"string"},var:{type:"string",multiple:!0},emulator:{type:"boolean"}});if(e.help)return r.stdout(`${w}
`),p.ok;if(o.length!==1)throw new a("BAD_ARGUMENTS",`matrix: expected one pipeline FILE, got ${o.length}`);let{pipeline:l}=await d(o[0],e.emulator?{...r,env:g(r.env)}:r,{vars:f(e.var),emulator:e.emulator,checkEnv:!1}),n=l.steps.filter(t=>t.matrix),i;if(e.step!==void 0){if(i=l.steps.find(t=>t.id===e.step),!i)throw new a("NO_SUCH_STEP",`matrix: no step with id ${e.step}`,{hint:`steps with a matrix: ${n.map(t=>t.id??`#${t.index+1}`).join(", ")||"none"}`});if(!i.matrix)throw new a("NO_MATRIX",`matrix: step ${e.step} has no matrix`)}else{if(n.length===0)throw new a("NO_MATRIX",`matrix: no step of ${o[0]} has a matrix`);if(n.length>1)throw new a("AMBIGUOUS_MATRIX",`matrix: ${n.length} steps have a matrix`,{hint:`name one with --step: ${n.map(t=>t.id??`(step ${t.index+1} has no id)`).join(", ")}`});i=n[0]}let m=x(i.matrix);r.stdout(`${JSON.stringify({include:m})}
`);let h=v(m.length);if(h){let t=i.id??`${i.index+1}`;r.stderr(`enginectl: warning: step ${u(t)}'s matrix is ${m.length.toLocaleString("en")} jobs; ${h}
  hint: split the fleet across jobs: a job per wave or per part of the inventory, each with its --only
`)}return p.ok}function v(s){if(s>256)return"a GitHub Actions job matrix runs at most 256, a GitLab parallel:matrix 200";if(s>200)return"a GitLab parallel:matrix runs at most 200"}export{w as MATRIX_HELP,L as matrixCommand};
