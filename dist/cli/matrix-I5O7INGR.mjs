import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as l,c as h}from"./chunk-WZ5DKTUO.mjs";import"./chunk-RMYFENOW.mjs";import"./chunk-G37FWCLS.mjs";import{a as d}from"./chunk-QT2ATPGP.mjs";import{a as x}from"./chunk-E4M3T3EB.mjs";import{a as m}from"./chunk-EDEB5ATK.mjs";import"./chunk-QYDNG22R.mjs";import"./chunk-ZHJZE6KQ.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as o,c as r}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var f=`Usage: enginectl matrix FILE [--step ID]

Prints a step's matrix as JSON, {"include": [{"target": "prod"}, ...]}, for a CI system's job
matrix (GitHub: strategy.matrix: \${{ fromJSON(needs.plan.outputs.matrix) }}). Each job then
runs its instance with enginectl run FILE --only KEY=VALUE.

Options:
  --step ID          the step (default: the only step with a matrix)
  --var NAME=VALUE   a var the file reads (repeatable)
  --emulator         validate as run --emulator would
  -h, --help         show this help

Exit codes: 0, 2 invalid input or no such matrix.`;async function I(u,a){let{values:e,positionals:s}=x("matrix",u,{step:{type:"string"},var:{type:"string",multiple:!0},emulator:{type:"boolean"}});if(e.help)return a.stdout(`${f}
`),o.ok;if(s.length!==1)throw new r("BAD_ARGUMENTS",`matrix: expected one pipeline FILE, got ${s.length}`);let{pipeline:p}=await l(s[0],e.emulator?{...a,env:d(a.env)}:a,{vars:h(e.var),emulator:e.emulator,checkEnv:!1}),i=p.steps.filter(t=>t.matrix),n;if(e.step!==void 0){if(n=p.steps.find(t=>t.id===e.step),!n)throw new r("NO_SUCH_STEP",`matrix: no step with id ${e.step}`,{hint:`steps with a matrix: ${i.map(t=>t.id??`#${t.index+1}`).join(", ")||"none"}`});if(!n.matrix)throw new r("NO_MATRIX",`matrix: step ${e.step} has no matrix`)}else{if(i.length===0)throw new r("NO_MATRIX",`matrix: no step of ${s[0]} has a matrix`);if(i.length>1)throw new r("AMBIGUOUS_MATRIX",`matrix: ${i.length} steps have a matrix`,{hint:`name one with --step: ${i.map(t=>t.id??`(step ${t.index+1} has no id)`).join(", ")}`});n=i[0]}return a.stdout(`${JSON.stringify({include:m(n.matrix)})}
`),o.ok}export{f as MATRIX_HELP,I as matrixCommand};
