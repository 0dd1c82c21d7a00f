import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as v}from"./chunk-7IY2U7SB.mjs";import{c as S}from"./chunk-MOITWLS2.mjs";import{E as U,f as k,l as $,q as c,r as g,s as h,t as E,v as I,y as L,z as R}from"./chunk-AGOE4SI5.mjs";import{a as N}from"./chunk-L4VCQHX6.mjs";import{a as o}from"./chunk-DJA6MMAV.mjs";import"./chunk-Y4VFX5MH.mjs";import"./chunk-5PKOWVWT.mjs";import"./chunk-7XIF3O5X.mjs";import"./chunk-BTQ6WZQA.mjs";import"./chunk-76HYHGJQ.mjs";import"./chunk-DDGOEYDW.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-FUHHALRG.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-5AIDX52M.mjs";import{a as m,c as f}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";var x=`Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on)
  -h, --help    show this help

Exit codes: 0, 2 invalid input (or a store that cannot be read).`;async function K(C,e){let{values:t,positionals:D}=N("runs",C,{store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}});if(t.help)return e.stdout(`${x}
`),m.ok;if(D.length>0)throw new f("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let s=t.last===void 0?20:Number(t.last);if(!Number.isInteger(s)||s<1)throw new f("BAD_ARGUMENTS",`runs --last ${t.last}: a whole number from 1`);let i=U("runs",t.store,e.env,e.cwd),O=(await R(i)).slice(0,t.parked?void 0:s),a=0,p=(e.clock??S()).now();for(let d of O){let{text:b}=await L(i,d),r=$(b,`${i.url} run ${d}`,k(e.env)),n=r.runs[0];if(t.parked){let u=r.parked&&c(r.parked,p);if(!u||h(u)||a>=s)continue;a++;let{park:l,decided:w}=u;e.stdout(`${o(`${d}  "${n.name}" (${n.file})  parked${l.wave?` at wave ${l.wave}`:""} since ${new Date(l.since).toISOString()}: waiting for ${l.reason}${w.length?` (${w.length} decision(s) since)`:""}`)}
`);for(let y of[...I(E(u)),...g(r.parked,p)])e.stdout(`  ${o(y)}
`);continue}a++,e.stdout(`${d}  ${new Date(n.at).toISOString()}  ${o(`"${n.name}" (${n.file})`)}  ${r.parked&&!h(c(r.parked,p))?"parked":r.finished?v(r).outcome:"not finished"}
`)}return a===0&&e.stdout(`no ${t.parked?"parked ":""}run in ${o(i.url)}
`),m.ok}export{x as RUNS_HELP,K as runsCommand};
