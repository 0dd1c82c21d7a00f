import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as E}from"./chunk-V33YCNTQ.mjs";import{f as d,l as f,q as h,r as p,t as c}from"./chunk-CP7G6RZX.mjs";import{a as l}from"./chunk-DJA6MMAV.mjs";import{a as w}from"./chunk-QXZQ23ZW.mjs";import"./chunk-43F467T2.mjs";import"./chunk-BBY5QJG5.mjs";import"./chunk-GSAXC3KX.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-ADKTZLAK.mjs";import"./chunk-V4YFOL65.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-4FM6KZ6G.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-5AIDX52M.mjs";import{a,c as u}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";var $=`Usage: enginectl runs --store URL [--last N]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  -h, --help    show this help

Exit codes: 0, 2 invalid input (or a store that cannot be read).`;async function b(g,t){let{values:e,positionals:R}=w("runs",g,{store:{type:"string"},last:{type:"string"}});if(e.help)return t.stdout(`${$}
`),a.ok;if(R.length>0)throw new u("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let s=e.last===void 0?20:Number(e.last);if(!Number.isInteger(s)||s<1)throw new u("BAD_ARGUMENTS",`runs --last ${e.last}: a whole number from 1`);let r=c("runs",e.store,t.env,t.cwd),m=(await p(r)).slice(0,s);m.length===0&&t.stdout(`no run in ${l(r.url)}
`);for(let n of m){let{text:U}=await h(r,n),o=f(U,`${r.url} run ${n}`,d(t.env)),i=o.runs[0];t.stdout(`${n}  ${new Date(i.at).toISOString()}  ${l(`"${i.name}" (${i.file})`)}  ${o.finished?E(o).outcome:"not finished"}
`)}return a.ok}export{$ as RUNS_HELP,b as runsCommand};
