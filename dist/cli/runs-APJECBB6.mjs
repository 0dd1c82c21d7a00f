import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as C,b as G}from"./chunk-S6W5FQOK.mjs";import"./chunk-FELFPAKR.mjs";import{G as x}from"./chunk-BB6EOWOV.mjs";import"./chunk-XRJMPPIX.mjs";import"./chunk-42ZKH5TH.mjs";import"./chunk-I6OQGEIX.mjs";import"./chunk-FE5Q44TW.mjs";import{b as E,c as N,d as R,e as v,j as y}from"./chunk-2GROMWAQ.mjs";import"./chunk-5M4OUTR3.mjs";import{C as k,L,_ as U,ba as I,da as T,ka as b,y as D}from"./chunk-ENB6BMLI.mjs";import"./chunk-LCW3XORK.mjs";import"./chunk-3OVRUIMJ.mjs";import"./chunk-2A4M6GQT.mjs";import"./chunk-545GDYOU.mjs";import{a as _}from"./chunk-DY4SYJHE.mjs";import"./chunk-UOYZUUOK.mjs";import"./chunk-MABUYCVR.mjs";import"./chunk-7EDNEW5B.mjs";import{e as a}from"./chunk-W3YLBX4Z.mjs";import"./chunk-AM7FTHEV.mjs";import"./chunk-4L3HG4GP.mjs";import"./chunk-DDLHSVKF.mjs";import"./chunk-IYLI5F46.mjs";import"./chunk-6OF2ZQOX.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-7XUYJP75.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-UWXU5CI3.mjs";import{h as g,k as A}from"./chunk-Q3WUFOEX.mjs";import"./chunk-Q552WKUS.mjs";import{a as w,b as O,c as $}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var M=new Set(["BAD_JOURNAL","STORE_DAMAGED","STORE_VERSION"]);function j(l,e){let t=U(e).slice(0,-1);try{A(t)}catch{throw new g("STORE_DAMAGED",`${l}: ${JSON.stringify(t)} is not a key of the run store: no run of enginectl`,{hint:"move it out of the store (it may have been copied or planted there)"})}}var F=`Usage: enginectl runs --store URL [--last N] [--parked]

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
(or a journal that is not enginectl's).`,J={store:{type:"string"},last:{type:"string"},parked:{type:"boolean"}};async function re(l,e){let{values:t,positionals:h}=_("runs",l,J);if(t.help)return e.stdout(`${F}
`),w.ok;if(h.length>0)throw new $("BAD_ARGUMENTS","runs: takes no FILE; --store URL names the store");let d=t.last===void 0?20:/^\d+$/.test(t.last)?Number(t.last):NaN;if(!Number.isInteger(d)||d<1)throw new $("BAD_ARGUMENTS",`runs --last ${t.last}: a whole number from 1`);let r=await b("runs",t.store,e.env,e.cwd,"",e.signal),p=await C(r),P=[...(await T(r)).filter(s=>!p.siteRuns.has(s)),...p.ids].sort().reverse().slice(0,t.parked?void 0:d),u=0,f=(e.clock??D()).now(),m;for(let s of P){let i;try{if(p.ids.has(s)){let o=await G(r,s,k(e.env),f);if(t.parked&&(!o.parked||u>=d))continue;u++,e.stdout(K(s,o,t.parked??!1));continue}j(r.url,s);let n=await I(r,s).catch(o=>{if(!(o instanceof g&&o.code==="STORE_REFUSED"))throw o});if(!n)continue;i=L(n.text,`${r.url} run ${s}`,k(e.env))}catch(n){if(!(n instanceof O)||!M.has(n.code))throw n;m??=n,u++,e.stdout(`${a(`${s}  cannot be read: ${n.message}`)}
`);continue}let c=i.runs[0];if(t.parked){let n=i.parked&&E(i.parked,f);if(!n||R(n)||u>=d)continue;u++;let{park:o,decided:S}=n;e.stdout(`${a(`${s}  "${c.name}" (${c.file})  parked${o.wave?` at wave ${o.wave}`:""} since ${new Date(o.since).toISOString()}: waiting for ${o.reason}${S.length?` (${S.length} decision(s) since)`:""}`)}
`);for(let B of[...y(v(n)),...N(i.parked,f)])e.stdout(`  ${a(B)}
`);continue}u++,e.stdout(`${s}  ${new Date(c.at).toISOString()}  ${a(`"${c.name}" (${c.file})`)}  ${i.parked&&!R(E(i.parked,f))?"parked":i.finished?x(i).outcome:"not finished"}
`)}if(m)throw m;return u===0&&e.stdout(`no ${t.parked?"parked ":""}run in ${a(r.url)}
`),w.ok}function K(l,e,t){let h=`"${e.name}" (${e.file})`,d=`sharded over ${e.shards} shard(s), ${e.sites} site(s)`;if(!t)return`${l}  ${new Date(e.at).toISOString()}  ${a(`${h}  ${d}: ${e.state}`)}
`;let r=e.parked;return`${a(`${l}  ${h}  ${d}, parked at wave ${r.wave} since ${r.since}: waiting for ${r.reason}`)}
  ${a(r.goOn)}
`}export{J as OPTIONS,F as RUNS_HELP,re as runsCommand};
