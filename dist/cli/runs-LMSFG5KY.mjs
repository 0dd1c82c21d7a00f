import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as v}from"./chunk-6O5VXYQO.mjs";import{c as E,d as A,e as g,f as D,k as y}from"./chunk-YGL3BBXK.mjs";import{G as U,J as L,L as I,S as T,p as O,v as N}from"./chunk-5MFMB63O.mjs";import{e as S}from"./chunk-C6YHNPYG.mjs";import{a as b}from"./chunk-DY4SYJHE.mjs";import{b as i}from"./chunk-AHG3RS4B.mjs";import"./chunk-JOC2QFEZ.mjs";import"./chunk-OVS7OY66.mjs";import"./chunk-NAPHYTRD.mjs";import"./chunk-NGRWKBKU.mjs";import"./chunk-FOECKHWR.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-BEKTVRNM.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import{c as w,g as R}from"./chunk-BFQOYHR7.mjs";import"./chunk-QBTB3T6B.mjs";import{a as m,b as k,c as p}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var G=new Set(["BAD_JOURNAL","STORE_DAMAGED","STORE_VERSION"]);function P(c,e){let n=U(e).slice(0,-1);try{R(n)}catch{throw new w("STORE_DAMAGED",`${c}: ${JSON.stringify(n)} is not a key of the run store: no run of enginectl`,{hint:"move it out of the store (it may have been copied or planted there)"})}}var B=`Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on)
  -h, --help    show this help

A run that cannot be read (its records not enginectl's, or damaged) is listed as "cannot be
read" with why, and the others still are; the command then exits as its error says.

Exit codes: 0, 1 the store failed or a run's records are damaged (STORE_DAMAGED), 2 invalid input
(or a journal that is not enginectl's).`,M={store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}};async function Y(c,e){let{values:n,positionals:_}=b("runs",c,M);if(n.help)return e.stdout(`${B}
`),m.ok;if(_.length>0)throw new p("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let l=n.last===void 0?20:/^\d+$/.test(n.last)?Number(n.last):NaN;if(!Number.isInteger(l)||l<1)throw new p("BAD_ARGUMENTS",`runs --last ${n.last}: a whole number from 1`);let a=await T("runs",n.store,e.env,e.cwd,"",e.signal),x=(await I(a)).slice(0,n.parked?void 0:l),d=0,f=(e.clock??N()).now(),h;for(let s of x){let r;try{P(a.url,s);let t=await L(a,s).catch(o=>{if(!(o instanceof w&&o.code==="STORE_REFUSED"))throw o});if(!t)continue;r=O(t.text,`${a.url} run ${s}`,S(e.env))}catch(t){if(!(t instanceof k)||!G.has(t.code))throw t;h??=t,d++,e.stdout(`${i(`${s}  cannot be read: ${t.message}`)}
`);continue}let u=r.runs[0];if(n.parked){let t=r.parked&&E(r.parked,f);if(!t||g(t)||d>=l)continue;d++;let{park:o,decided:$}=t;e.stdout(`${i(`${s}  "${u.name}" (${u.file})  parked${o.wave?` at wave ${o.wave}`:""} since ${new Date(o.since).toISOString()}: waiting for ${o.reason}${$.length?` (${$.length} decision(s) since)`:""}`)}
`);for(let C of[...y(D(t)),...A(r.parked,f)])e.stdout(`  ${i(C)}
`);continue}d++,e.stdout(`${s}  ${new Date(u.at).toISOString()}  ${i(`"${u.name}" (${u.file})`)}  ${r.parked&&!g(E(r.parked,f))?"parked":r.finished?v(r).outcome:"not finished"}
`)}if(h)throw h;return d===0&&e.stdout(`no ${n.parked?"parked ":""}run in ${i(a.url)}
`),m.ok}export{M as OPTIONS,B as RUNS_HELP,Y as runsCommand};
