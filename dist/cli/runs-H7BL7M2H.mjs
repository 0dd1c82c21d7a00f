import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as T}from"./chunk-GPJDFL4I.mjs";import{b as m,c as I,d as h,e as L,g as S}from"./chunk-NMORZQWZ.mjs";import{E as O,l as g,r as R,v as U,x as N}from"./chunk-Y573WYPI.mjs";import{d as E}from"./chunk-5U5H4LAF.mjs";import{a as D}from"./chunk-FSWQR6ZN.mjs";import{b as s}from"./chunk-AHG3RS4B.mjs";import"./chunk-6CQOYDXD.mjs";import"./chunk-3MDRZ67H.mjs";import"./chunk-BTSQROBY.mjs";import"./chunk-PPGT7FDP.mjs";import"./chunk-24TLEDBR.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-EPM37DMS.mjs";import"./chunk-PW43Y33T.mjs";import{a as $}from"./chunk-R26CQQHO.mjs";import"./chunk-QBTB3T6B.mjs";import{a as p,c as f}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";var A=`Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on)
  -h, --help    show this help

Exit codes: 0, 2 invalid input (or a store that cannot be read).`,P={store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}};async function z(v,e){let{values:t,positionals:C}=D("runs",v,P);if(t.help)return e.stdout(`${A}
`),p.ok;if(C.length>0)throw new f("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let i=t.last===void 0?20:Number(t.last);if(!Number.isInteger(i)||i<1)throw new f("BAD_ARGUMENTS",`runs --last ${t.last}: a whole number from 1`);let a=await O("runs",t.store,e.env,e.cwd),b=(await N(a)).slice(0,t.parked?void 0:i),d=0,c=(e.clock??R()).now();for(let u of b){let w=await U(a,u).catch(r=>{if(!(r instanceof $&&r.code==="STORE_REFUSED"))throw r});if(!w)continue;let{text:x}=w,n=g(x,`${a.url} run ${u}`,E(e.env)),o=n.runs[0];if(t.parked){let r=n.parked&&m(n.parked,c);if(!r||h(r)||d>=i)continue;d++;let{park:l,decided:k}=r;e.stdout(`${s(`${u}  "${o.name}" (${o.file})  parked${l.wave?` at wave ${l.wave}`:""} since ${new Date(l.since).toISOString()}: waiting for ${l.reason}${k.length?` (${k.length} decision(s) since)`:""}`)}
`);for(let y of[...S(L(r)),...I(n.parked,c)])e.stdout(`  ${s(y)}
`);continue}d++,e.stdout(`${u}  ${new Date(o.at).toISOString()}  ${s(`"${o.name}" (${o.file})`)}  ${n.parked&&!h(m(n.parked,c))?"parked":n.finished?T(n).outcome:"not finished"}
`)}return d===0&&e.stdout(`no ${t.parked?"parked ":""}run in ${s(a.url)}
`),p.ok}export{P as OPTIONS,A as RUNS_HELP,z as runsCommand};
