import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as A,b as L,c as T,d as w,e as x,f as _,h as J,i as C,j as G,k as K,l as X,n as z,o as Q,p as Y,y as Z}from"./chunk-FMRHRPVE.mjs";import{e as I,f as U,h as B,i as F,m as H}from"./chunk-IU7U2MVL.mjs";import{a as O}from"./chunk-EW74HRH6.mjs";import{b as q}from"./chunk-EQFJ2ISD.mjs";import{a as g}from"./chunk-XD672PWT.mjs";import"./chunk-TG3JULFE.mjs";import"./chunk-IWTP5CIB.mjs";import"./chunk-VC2YGFMK.mjs";import"./chunk-VLHSPRAN.mjs";import"./chunk-JQ2F5QNC.mjs";import"./chunk-HD3TVD3A.mjs";import"./chunk-7ZSVOTAE.mjs";import"./chunk-XZU5NY6L.mjs";import{b as D}from"./chunk-KZDBQLSD.mjs";import"./chunk-ODKN3ZZ4.mjs";import{b as S}from"./chunk-R5RFSW2F.mjs";import{C as b,E as W,f as R,l as M}from"./chunk-GRB2S2E5.mjs";import{a as V}from"./chunk-L4VCQHX6.mjs";import{a as h}from"./chunk-DJA6MMAV.mjs";import{e as E,f as $}from"./chunk-XWKUUFGD.mjs";import{b as v,c as P}from"./chunk-MDL4DELG.mjs";import{d as j}from"./chunk-5PKOWVWT.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-24P6QRAI.mjs";import"./chunk-BTQ6WZQA.mjs";import"./chunk-5WWBHRYK.mjs";import{c as N}from"./chunk-DDGOEYDW.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-FUHHALRG.mjs";import{b as y}from"./chunk-QYUEQ7AK.mjs";import"./chunk-F2F24H5K.mjs";import"./chunk-5AIDX52M.mjs";import{a as c,c as u}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";async function re(r,t,e){let o;try{o=await t(r)}catch(a){throw new u("BAD_REPORT",`report --merge: cannot read ${r} (${a.code??a.message})`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote"})}let n=ae(o);if(n===void 0&&!ie(o))throw new u("BAD_REPORT",`report --merge: ${r} is neither a JSON report (--report-json) nor a journal (--journal)`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, not a summary, HTML or JUnit file"});if(n===void 0)return{source:r,report:P(g(M(o,r,e)))};if(N(n,1e3))throw new u("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: it nests more than ${1e3} levels deep`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"});let d=v.safeParse(n);if(d.success)return{source:r,report:d.data};let i=d.error.issues[0];throw new u("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: ${i.path.join(".")||"(top)"}: ${i.message}`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"})}function ie(r){let t=r.indexOf(`
`);try{let e=JSON.parse(t<0?r:r.slice(0,t));return e!==null&&typeof e=="object"&&"t"in e}catch{return!1}}function ae(r){if(r.trimStart().startsWith("{"))try{let t=JSON.parse(r);return t&&typeof t=="object"&&"t"in t?void 0:t}catch{return}}function te(r){return{line:t=>r(`${t}
`),sectionStart:()=>!1,sectionEnd:()=>{},annotate:()=>!1}}var de=`Usage: enginectl report JOURNAL [options]
       enginectl report --store URL --run ID [options]
       enginectl report --merge FILE... [options]
       enginectl report --merge --store URL --run ID [options]

Renders the reports of a run from its journal (run --journal F), also of a run that was killed:
a step whose call was sent and never answered is "in doubt" (the server may have applied it).
Prints each step's outcome; the reports are written where the options say.

With --merge, the JSON reports (--report-json) or journals of a fleet's jobs (one per site,
run --only site=X) become one report of the whole fleet: every instance once, a row per job,
and each value of the fleet that no report holds an instance of as "no report" (its job died or
never ran), which fails the fleet. Each job's outcome is read from its steps. Reports of
other files, --var values or inventory are another pipeline's, refused unless --force.

With --merge --store URL --run ID, the sharded run of that id (enginectl shard) as one report:
every site of its manifest, each rendered from its run's journal in the store; a site no worker
started, and a shard no worker registered, are "no report" and fail it. Without a store, merge
the workers' own JSON reports with --expect-shards N: each site and each shard no report holds
is "no report"; a site one worker left (its lease lapsed) and another resumed is the resumer's.

Options:
${T}
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           render the run of that id from the run store, as from its journal
                     (with --merge and no file: also ENGINECTL_RUN, as the workers read it)
  --merge            merge the reports or journals named (reports of one pipeline)
  --force            with --merge: merge reports of different pipelines too
  --expect-shards N  with --merge FILE...: the files are the JSON reports of a sharded run's workers
                     (run --shard I/N --report-json F); each of shards 1 to N with no report is
                     named and fails the fleet
  --webhook URL      POST the JSON report (as --report-json writes it) to URL; the URL is a secret
                     (masked everywhere); a failure is a warning, never the exit code
  --ci NAME          put the summary where a CI system shows it: ${S.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 the run (or every job of the fleet) succeeded, 1 it failed, was cancelled or
killed, a step is in doubt or a job has no report, 2 invalid input.`;async function qe(r,t){let{values:e,positionals:o}=V("report",r,{...L,merge:{type:"boolean"},force:{type:"boolean"},store:{type:"string"},run:{type:"string"},ci:{type:"string"},webhook:{type:"string"},"expect-shards":{type:"string"}});if(e.help)return t.stdout(`${de}
`),c.ok;O(t,e.ci);let n=new D,i={webhook:e.webhook===void 0?void 0:K(e.webhook,n,"--webhook","BAD_ARGUMENTS"),masker:n};if(e.force&&!e.merge)throw new u("BAD_ARGUMENTS","report: --force goes with --merge");let a=e.run??(e.merge&&o.length===0?t.env[b]:void 0),m=le(e["expect-shards"],e.merge===!0,a!==void 0),p=e.merge?"a report to merge":"the journal (JOURNAL)";if(U(_(w(e),t.cwd),o.map(l=>I(p,l,t.cwd))),e.merge&&a!==void 0)return ue(o,{...e,run:a},t,i);if(e.merge&&e.store!==void 0&&o.length===0)throw new u("BAD_ARGUMENTS",`report --merge --store: which sharded run? give --run ID (or ${b})`,{hint:"enginectl report --merge --store URL --run ID, the id enginectl shard printed (run ID in URL)"});if(e.merge)return me(o,{...e,expectShards:m},t,i);let{state:f}=await q("report",o,e,t),s=g(f),se=new z(te(t.stdout));s.steps.forEach(l=>se.stepFinished(l,`[${l.step+1}]`));let k=C(s);return t.stdout(`${Q(k.report)}
`),oe(()=>k.report,e,t,i,s.outcome==="success"&&!s.steps.some(l=>l.inDoubt&&!l.decision))}async function ue(r,t,e,o){if(r.length>0)throw new u("BAD_ARGUMENTS","report --merge --run ID reads the sharded run from the store: name no file");let n=W("report",t.store,e.env,e.cwd,"--run names a sharded run of a run store: "),{report:d}=await Z(n,t.run,R(e.env));return ne(d,t,e,o)}function ne(r,t,e,o){return he(r,e),oe(()=>r,t,e,o,r.outcome==="success"&&!r.steps.some(n=>n.inDoubt&&!n.decision))}var pe=r=>r.error?.code==="ROLLOUT_HALTED"||r.error?.code==="ROLLOUT_PARKED";function he(r,t){for(let n of E(r))t.stdout(`${n.status==="success"?"\u2714":"\u2716"} ${h(n.label)}: ${n.status==="no report"?n.detail:`${n.status} (${n.detail})`}${n.source&&n.source!==n.label?`  ${h(n.source)}`:""}
`);let{halted:e,parked:o}=r.rollout??{};if(e||o){let{over:n,waves:d}=r.rollout,i=new Set(r.steps.filter(p=>!pe(p)).map(p=>p.matrix?.[n])),a=d.flatMap(p=>p.values).filter(p=>!i.has(p)),m=a.length?`; not started: ${a.map(h).join(", ")}`:"";t.stdout(e?`\u2716 the rollout halted at wave ${e.wave}: ${h(e.reason)}; nothing is undone${m}
`:`\u23F8 the rollout waits at wave ${o.wave}: ${h(o.reason)} (since ${new Date(o.since).toISOString()}); the workers waiting go on once it is written, and any that parked when run again${m}
`)}t.stdout(`fleet "${h(r.pipeline.name)}": ${r.outcome} in ${y(r.durationMs)} (${$(r)}; ${r.counts.total} step run(s): ${j(r.counts)})
`)}async function me(r,t,e,o){if(r.length===0)throw new u("BAD_ARGUMENTS","report --merge: no report named",{hint:"enginectl report --merge reports/*.json --summary fleet.md"});let n=[];for(let i of r)n.push(await re(i,e.readFile,R(e.env)));let d=Y(n,{force:t.force===!0,expectShards:t.expectShards});return ne(d,t,e,o)}function le(r,t,e){if(r!==void 0){if(!t||e)throw new u("BAD_ARGUMENTS",`report: --expect-shards goes with --merge FILE... (${e?"with --store and --run the manifest knows the shards":"it merges the workers' reports"})`,{hint:"enginectl report --merge shard-*.json --expect-shards 8"});if(!/^[1-9][0-9]*$/.test(r))throw new u("BAD_ARGUMENTS",`report: --expect-shards ${r}: give the number of shards (1 or more)`,{hint:"as enginectl shard --shards said: --expect-shards 8"});return Number(r)}}async function oe(r,t,e,{webhook:o,masker:n},d){let i=await x(w(t),e.cwd),a=s=>e.stdout(`${s}
`),m=[],f=await B([G(i,{said:s=>a(`report: ${s}`)}),...o?[X(o,{env:e.env,said:a})]:[],H(O(e),e.env,a,{summaryFile:i.summary,fullReport:i.json??i.html})],{warn:s=>m.push(s),mask:s=>n.mask(s)}).ended(F(r(),s=>A(r(),{fullReport:s.fullReport})));for(let s of f)e.stderr(`enginectl: ${J.code}: ${s}
`);for(let s of m)e.stderr(`enginectl: warning: ${h(s)}
`);return d&&f.length===0?c.ok:c.failed}export{de as REPORT_HELP,qe as reportCommand};
