import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as L}from"./chunk-UW5BUJFZ.mjs";import{f as h,l as c,p,q as E,r as g,s as w}from"./chunk-K73OXJTL.mjs";import{a as u}from"./chunk-DJA6MMAV.mjs";import{a as R}from"./chunk-QXZQ23ZW.mjs";import"./chunk-OTMSXPK4.mjs";import"./chunk-OBO36EAH.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-Z64KPMGZ.mjs";import"./chunk-WY7HSKQS.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-WZR53DJA.mjs";import"./chunk-5AIDX52M.mjs";import{a,c as s}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";var $=`Usage: enginectl runs --store URL [--last N]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  -h, --help    show this help

Exit codes: 0, 2 invalid input (or a store that cannot be read).`;async function y(N,t){let{values:e,positionals:U}=R("runs",N,{store:{type:"string"},last:{type:"string"}});if(e.help)return t.stdout(`${$}
`),a.ok;if(U.length>0)throw new s("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let m=e.store??t.env[g];if(m===void 0)throw new s("BAD_ARGUMENTS","runs: give --store URL (or ENGINECTL_STORE)",{hint:"enginectl runs --store file:///mnt/enginectl"});let o=e.last===void 0?20:Number(e.last);if(!Number.isInteger(o)||o<1)throw new s("BAD_ARGUMENTS",`runs --last ${e.last}: a whole number from 1`);let n=w(m,t.cwd,t.env),f=(await E(n)).slice(0,o);f.length===0&&t.stdout(`no run in ${u(n.url)}
`);for(let i of f){let{text:r}=await p(n,i),d=c(r,`${n.url} run ${i}`,h(t.env)),I=/"t":"finish"/.test(r.slice(r.lastIndexOf(`
`,r.length-2))),A=L(d),l=d.runs[0];t.stdout(`${i}  ${new Date(l.at).toISOString()}  ${u(`"${l.name}" (${l.file})`)}  ${I?A.outcome:"not finished"}
`)}return a.ok}export{$ as RUNS_HELP,y as runsCommand};
