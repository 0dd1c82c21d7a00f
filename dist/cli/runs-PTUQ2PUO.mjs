import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as P}from"./chunk-UVEQQZDB.mjs";import"./chunk-S2WUCDB4.mjs";import{z as C}from"./chunk-FY4QV674.mjs";import"./chunk-UWR47GI2.mjs";import"./chunk-4EAVUMCL.mjs";import"./chunk-THVUBM22.mjs";import"./chunk-VL4I62GO.mjs";import"./chunk-OL3OMH2B.mjs";import"./chunk-4NKZ6NKM.mjs";import{b as S,c as A,d as E,e as D,j as N}from"./chunk-ZISKYGUF.mjs";import"./chunk-6WW3VURI.mjs";import{C as b,R as U,U as x,W as I,ba as T,p as L,t as R}from"./chunk-XYZJYMYS.mjs";import"./chunk-XZRVW7HX.mjs";import"./chunk-HMUXG5SO.mjs";import"./chunk-HJFHWZQK.mjs";import"./chunk-4LL752UJ.mjs";import{a as _}from"./chunk-DY4SYJHE.mjs";import"./chunk-YP34IIA4.mjs";import"./chunk-CYGFNC6W.mjs";import"./chunk-J3JAVBK2.mjs";import{e as c}from"./chunk-W3YLBX4Z.mjs";import"./chunk-FSFPT5DV.mjs";import"./chunk-LVN3HBAX.mjs";import"./chunk-DDLHSVKF.mjs";import"./chunk-VZBMWS65.mjs";import"./chunk-7BZLWKRS.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-KXXCQIQN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-UWXU5CI3.mjs";import{h as k,k as O}from"./chunk-Q3WUFOEX.mjs";import"./chunk-Q552WKUS.mjs";import{a as g,b as y,c as $}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";async function G(r){let e=new Set,t=new Set;for(let o of await r.list("shards/")){let s=/^shards\/([^/]+)\/manifest$/.exec(o);s&&e.add(s[1]);let n=/^shards\/[^/]+\/runs\/([^/]+)$/.exec(o);n&&t.add(n[1])}return{ids:e,siteRuns:t}}async function B(r,e,t,o){let{report:s,sites:n,manifest:f}=await P(r,e,t,o),l=j(s);return{at:f.at,name:f.name,file:f.file,shards:f.shards,sites:n,state:F(s,l),...l?{parked:l}:{}}}function j(r){let e=r.parked;if(!e||r.outcome==="under-way")return;let t=e.for==="bake"?`run its workers again (the same commands) at or after ${e.until??"the bake"}`:e.for==="window"?`run its workers that parked again (the same commands) at or after ${e.until??"the window"}`:"run its workers that parked again (the same commands)";return{wave:e.wave,since:e.since,reason:e.reason,goOn:t}}function F(r,e){let t=r.rollout,o=r.merged?.underWay;return o?`under way at wave ${o.wave}`:e?`parked at wave ${e.wave}`:t?.halted?`halted at wave ${t.halted.wave}`:t?.stopped?`stopped in wave ${t.stopped}`:r.merged?.reports.length===0?"planned, no worker started a site yet":r.outcome}var J=new Set(["BAD_JOURNAL","STORE_DAMAGED","STORE_VERSION"]);function K(r,e){let t=U(e).slice(0,-1);try{O(t)}catch{throw new k("STORE_DAMAGED",`${r}: ${JSON.stringify(t)} is not a key of the run store: no run of enginectl`,{hint:"move it out of the store (it may have been copied or planted there)"})}}var H=`Usage: enginectl runs --store URL [--last N] [--parked]

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
(or a journal that is not enginectl's).`,W={store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}};async function de(r,e){let{values:t,positionals:o}=_("runs",r,W);if(t.help)return e.stdout(`${H}
`),g.ok;if(o.length>0)throw new $("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let s=t.last===void 0?20:/^\d+$/.test(t.last)?Number(t.last):NaN;if(!Number.isInteger(s)||s<1)throw new $("BAD_ARGUMENTS",`runs --last ${t.last}: a whole number from 1`);let n=await T("runs",t.store,e.env,e.cwd,"",e.signal),f=await G(n),l=[...(await I(n)).filter(i=>!f.siteRuns.has(i)),...f.ids].sort().reverse().slice(0,t.parked?void 0:s),h=0,p=(e.clock??L()).now(),w;for(let i of l){let u;try{if(f.ids.has(i)){let d=await B(n,i,R(e.env),p);if(t.parked&&(!d.parked||h>=s))continue;h++,e.stdout(V(i,d,t.parked??!1));continue}K(n.url,i);let a=await x(n,i).catch(d=>{if(!(d instanceof k&&d.code==="STORE_REFUSED"))throw d});if(!a)continue;u=b(a.text,`${n.url} run ${i}`,R(e.env))}catch(a){if(!(a instanceof y)||!J.has(a.code))throw a;w??=a,h++,e.stdout(`${c(`${i}  cannot be read: ${a.message}`)}
`);continue}let m=u.runs[0];if(t.parked){let a=u.parked&&S(u.parked,p);if(!a||E(a)||h>=s)continue;h++;let{park:d,decided:v}=a;e.stdout(`${c(`${i}  "${m.name}" (${m.file})  parked${d.wave?` at wave ${d.wave}`:""} since ${new Date(d.since).toISOString()}: waiting for ${d.reason}${v.length?` (${v.length} decision(s) since)`:""}`)}
`);for(let M of[...N(D(a)),...A(u.parked,p)])e.stdout(`  ${c(M)}
`);continue}h++,e.stdout(`${i}  ${new Date(m.at).toISOString()}  ${c(`"${m.name}" (${m.file})`)}  ${u.parked&&!E(S(u.parked,p))?"parked":u.finished?C(u).outcome:"not finished"}
`)}if(w)throw w;return h===0&&e.stdout(`no ${t.parked?"parked ":""}run in ${c(n.url)}
`),g.ok}function V(r,e,t){let o=`"${e.name}" (${e.file})`,s=`sharded over ${e.shards} shard(s), ${e.sites} site(s)`;if(!t)return`${r}  ${new Date(e.at).toISOString()}  ${c(`${o}  ${s}: ${e.state}`)}
`;let n=e.parked;return`${c(`${r}  ${o}  ${s}, parked at wave ${n.wave} since ${n.since}: waiting for ${n.reason}`)}
  ${c(n.goOn)}
`}export{W as OPTIONS,H as RUNS_HELP,de as runsCommand};
