import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as P,b as B}from"./chunk-VWWALJWZ.mjs";import"./chunk-NTN34NYT.mjs";import{P as G}from"./chunk-N6K2YO5R.mjs";import"./chunk-JGQVSH6P.mjs";import"./chunk-FS4R2FFS.mjs";import"./chunk-PJWYOYUT.mjs";import"./chunk-IE4JDKAU.mjs";import{d as R,e as N,f as S,g as v,l as U}from"./chunk-4PX4EJGD.mjs";import{O as D,U as L,ia as I,l as E,la as T,ma as b,oa as _,va as x}from"./chunk-3LJ36IE7.mjs";import"./chunk-7VYCZVKY.mjs";import"./chunk-NECUPUWM.mjs";import"./chunk-6IEEONUA.mjs";import"./chunk-JTOROTH4.mjs";import{a as C}from"./chunk-DY4SYJHE.mjs";import"./chunk-OCWTDD7L.mjs";import"./chunk-B5B6H6SZ.mjs";import"./chunk-6DCNIRPS.mjs";import{e as a}from"./chunk-U4ZAGPRP.mjs";import"./chunk-PAUM5UU5.mjs";import"./chunk-HTCSK6XY.mjs";import"./chunk-4HTAQX72.mjs";import{b as A}from"./chunk-HXLWJUD2.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XBE3ELGE.mjs";import{h as k,k as y}from"./chunk-OFVGQUYN.mjs";import"./chunk-Q552WKUS.mjs";import{a as $,b as O,c as g}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var j=new Set(["BAD_JOURNAL","STORE_DAMAGED","STORE_VERSION"]);function F(l,e){let t=I(e).slice(0,-1);try{y(t)}catch{throw new k("STORE_DAMAGED",`${l}: ${JSON.stringify(t)} is not a key of the run store: no run of enginectl`,{hint:"move it out of the store (it may have been copied or planted there)"})}}var K=`Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID). A sharded run (enginectl shard)
is one line, with where its rollout stands as report --merge --store reads it; the runs its
workers started for its sites are not listed on their own (its merged report names them).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on; a sharded
                run: its workers run again)
  -h, --help    show this help

A run that cannot be read (its records not enginectl's, or damaged) is listed as "cannot be
read" with why, and the others still are; the command then exits as its error says.

Exit codes: 0, 1 the store failed or a run's records are damaged (STORE_DAMAGED), 2 invalid input
(or a journal that is not enginectl's).`,H={store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}};async function ie(l,e){let{values:t,positionals:f}=C("runs",l,H);if(t.help)return e.stdout(`${K}
`),$.ok;if(f.length>0)throw new g("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let d=t.last===void 0?20:/^\d+$/.test(t.last)?Number(t.last):NaN;if(!Number.isInteger(d)||d<1)throw new g("BAD_ARGUMENTS",`runs --last ${t.last}: a whole number from 1`);let n=await x("runs",t.store,e.env,e.cwd,"",e.signal),p=await P(n),J=[...(await _(n)).filter(s=>!p.siteRuns.has(s)),...p.ids].sort().reverse().slice(0,t.parked?void 0:d),u=0,m=(e.clock??D()).now(),w;for(let s of J){let o;try{if(p.ids.has(s)){let i=await B(n,s,E(e.env),m);if(t.parked&&(!i.parked||u>=d))continue;u++,e.stdout(V(s,i,t.parked??!1));continue}F(n.url,s);let r=await b(n,s).catch(i=>{if(!(i instanceof k&&i.code==="STORE_REFUSED"))throw i});if(!r)continue;let c=A(T(n,s,()=>r.segments));o=L(r.text,`${n.url} run ${s}`,E(e.env),c)}catch(r){if(!(r instanceof O)||!j.has(r.code))throw r;w??=r,u++,e.stdout(`${a(`${s}  cannot be read: ${r.message}`)}
`);continue}let h=o.runs[0];if(t.parked){let r=o.parked&&R(o.parked,m);if(!r||S(r)||u>=d)continue;u++;let{park:c,decided:i}=r;e.stdout(`${a(`${s}  "${h.name}" (${h.file})  parked${c.wave?` at wave ${c.wave}`:""} since ${new Date(c.since).toISOString()}: waiting for ${c.reason}${i.length?` (${i.length} decision(s) since)`:""}`)}
`);for(let M of[...U(v(r)),...N(o.parked,m)])e.stdout(`  ${a(M)}
`);continue}u++,e.stdout(`${s}  ${new Date(h.at).toISOString()}  ${a(`"${h.name}" (${h.file})`)}  ${o.parked&&!S(R(o.parked,m))?"parked":o.finished?G(o).outcome:"not finished"}
`)}if(w)throw w;return u===0&&e.stdout(`no ${t.parked?"parked ":""}run in ${a(n.url)}
`),$.ok}function V(l,e,t){let f=`"${e.name}" (${e.file})`,d=`sharded over ${e.shards} shard(s), ${e.sites} site(s)`;if(!t)return`${l}  ${new Date(e.at).toISOString()}  ${a(`${f}  ${d}: ${e.state}`)}
`;let n=e.parked;return`${a(`${l}  ${f}  ${d}, parked at wave ${n.wave} since ${n.since}: waiting for ${n.reason}`)}
  ${a(n.goOn)}
`}export{H as OPTIONS,K as RUNS_HELP,ie as runsCommand};
