import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as c}from"./chunk-CXGEMZGM.mjs";import{a as T,b as A,c as L,d as O,e as J,f as _,h as C,i as x,j as W,k as K,l as X,n as Q,o as V,p as b,q as ee,s as re}from"./chunk-LWD24NMX.mjs";import{e as U,f as D,h as F,i as B,m as H}from"./chunk-3GOKB4UI.mjs";import{a as y}from"./chunk-EW74HRH6.mjs";import{b as z}from"./chunk-ZGSIU7I3.mjs";import{a as Y,g as Z,k as te}from"./chunk-S6L2ZMJR.mjs";import"./chunk-JEAK6UNT.mjs";import"./chunk-AQ52GPVN.mjs";import"./chunk-YW3XFM2N.mjs";import"./chunk-FHNND27O.mjs";import"./chunk-ZHD4HHLL.mjs";import"./chunk-7ZSVOTAE.mjs";import"./chunk-L77ZE5WO.mjs";import{b as I}from"./chunk-KZDBQLSD.mjs";import"./chunk-W6ITXQKC.mjs";import{b as j}from"./chunk-R5RFSW2F.mjs";import{D as G,f as S,l as R,r as M}from"./chunk-RSBVE6ED.mjs";import{a as q}from"./chunk-L4VCQHX6.mjs";import{a as h}from"./chunk-DJA6MMAV.mjs";import{b as $,c as v}from"./chunk-3J3FP5I5.mjs";import{a as N,b as w}from"./chunk-TUALRWO6.mjs";import{d as k}from"./chunk-UUA7ILDL.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-6FJLGLEX.mjs";import"./chunk-RLXVL7QD.mjs";import"./chunk-RBSOY5YP.mjs";import{c as P}from"./chunk-MSFJVINB.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-VP3LLZ6O.mjs";import{b as E}from"./chunk-QYUEQ7AK.mjs";import"./chunk-F2F24H5K.mjs";import"./chunk-5AIDX52M.mjs";import{a as g,c as p}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";async function ne(r,t,e){let o;try{o=await t(r)}catch(s){throw new p("BAD_REPORT",`report --merge: cannot read ${r} (${s.code??s.message})`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote"})}let n=ue(o);if(n===void 0&&!pe(o))throw new p("BAD_REPORT",`report --merge: ${r} is neither a JSON report (--report-json) nor a journal (--journal)`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, not a summary, HTML or JUnit file"});if(n===void 0)return{source:r,report:w(c(R(o,r,e)))};if(P(n,1e3))throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: it nests more than ${1e3} levels deep`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"});let m=N.safeParse(n);if(m.success)return{source:r,report:m.data};let a=m.error.issues[0];throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: ${a.path.join(".")||"(top)"}: ${a.message}`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"})}function pe(r){let t=r.indexOf(`
`);try{let e=JSON.parse(t<0?r:r.slice(0,t));return e!==null&&typeof e=="object"&&"t"in e}catch{return!1}}function ue(r){if(r.trimStart().startsWith("{"))try{let t=JSON.parse(r);return t&&typeof t=="object"&&"t"in t?void 0:t}catch{return}}function se(r){return{line:t=>r(`${t}
`),sectionStart:()=>!1,sectionEnd:()=>{},annotate:()=>!1}}async function ie(r,t,e){let o=await Z(r,t),n=[];for(let s=0;s<o.waves.length;s++){let l=await new ee(r,t,s+1).read();for(let u of o.waves[s]){let d=(await re(r,t,u))?.siteRun??l.owners.get(u)?.siteRun;if(d===void 0)continue;let i=await M(r,d).catch(()=>{});if(!i)continue;let f=`${r.url} run ${d}`;n.push({source:`${o.over} ${u}: run ${d}`,report:w(c(R(i.text,f,e)))})}}if(n.length===0)throw new p("BAD_ARGUMENTS",`report --merge: no site of sharded run ${t} has started yet`,{hint:"start its workers: enginectl run FILE --store URL --run ID --shard I/N"});let m=[];for(let s=0;s<o.shards;s++)(await r.list(Y(t).workers(s))).length===0&&m.push(s+1);let a=b(n,te(o,o.waves.flat()));return m.length&&a.merged&&(a.merged.noReport.push(...m.map(s=>`shard ${s}/${o.shards} (no worker started)`)),a.outcome="failure"),{report:a,missingShards:m,sites:o.waves.flat().length}}var de=`Usage: enginectl report JOURNAL [options]
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
started, and a shard no worker registered, are "no report" and fail it.

Options:
${L}
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           render the run of that id from the run store, as from its journal
  --merge            merge the reports or journals named (reports of one pipeline)
  --force            with --merge: merge reports of different pipelines too
  --webhook URL      POST the JSON report (as --report-json writes it) to URL; the URL is a secret
                     (masked everywhere); a failure is a warning, never the exit code
  --ci NAME          put the summary where a CI system shows it: ${j.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 the run (or every job of the fleet) succeeded, 1 it failed, was cancelled or
killed, a step is in doubt or a job has no report, 2 invalid input.`;async function ar(r,t){let{values:e,positionals:o}=q("report",r,{...A,merge:{type:"boolean"},force:{type:"boolean"},store:{type:"string"},run:{type:"string"},ci:{type:"string"},webhook:{type:"string"}});if(e.help)return t.stdout(`${de}
`),g.ok;y(t,e.ci);let n=new I,a={webhook:e.webhook===void 0?void 0:K(e.webhook,n,"--webhook","BAD_ARGUMENTS"),masker:n};if(e.force&&!e.merge)throw new p("BAD_ARGUMENTS","report: --force goes with --merge");let s=e.merge?"a report to merge":"the journal (JOURNAL)";if(D(_(O(e),t.cwd),o.map(f=>U(s,f,t.cwd))),e.merge&&e.run!==void 0)return fe(o,e,t,a);if(e.merge)return ce(o,e,t,a);let{state:l}=await z("report",o,e,t),u=c(l),d=new Q(se(t.stdout));u.steps.forEach(f=>d.stepFinished(f,`[${f.step+1}]`));let i=x(u);return t.stdout(`${V(i.report)}
`),me(()=>i.report,e,t,a,u.outcome==="success"&&!u.steps.some(f=>f.inDoubt&&!f.decision))}async function fe(r,t,e,o){if(r.length>0)throw new p("BAD_ARGUMENTS","report --merge --run ID reads the sharded run from the store: name no file");let n=G("report",t.store,e.env,e.cwd,"--run names a sharded run of a run store: "),{report:m}=await ie(n,t.run,S(e.env));return ae(m,t,e,o)}function ae(r,t,e,o){return le(r,e),me(()=>r,t,e,o,r.outcome==="success"&&!r.steps.some(n=>n.inDoubt&&!n.decision))}function le(r,t){for(let e of $(r))t.stdout(`${e.status==="success"?"\u2714":"\u2716"} ${h(e.label)}: ${e.status==="no report"?e.detail:`${e.status} (${e.detail})`}${e.source&&e.source!==e.label?`  ${h(e.source)}`:""}
`);t.stdout(`fleet "${h(r.pipeline.name)}": ${r.outcome} in ${E(r.durationMs)} (${v(r)}; ${r.counts.total} step run(s): ${k(r.counts)})
`)}async function ce(r,t,e,o){if(r.length===0)throw new p("BAD_ARGUMENTS","report --merge: no report named",{hint:"enginectl report --merge reports/*.json --summary fleet.md"});let n=[];for(let a of r)n.push(await ne(a,e.readFile,S(e.env)));let m=b(n,{force:t.force===!0});return ae(m,t,e,o)}async function me(r,t,e,{webhook:o,masker:n},m){let a=await J(O(t),e.cwd),s=i=>e.stdout(`${i}
`),l=[],d=await F([W(a,{said:i=>s(`report: ${i}`)}),...o?[X(o,{env:e.env,said:s})]:[],H(y(e),e.env,s,{summaryFile:a.summary,fullReport:a.json??a.html})],{warn:i=>l.push(i),mask:i=>n.mask(i)}).ended(B(r(),i=>T(r(),{fullReport:i.fullReport})));for(let i of d)e.stderr(`enginectl: ${C.code}: ${i}
`);for(let i of l)e.stderr(`enginectl: warning: ${h(i)}
`);return m&&d.length===0?g.ok:g.failed}export{de as REPORT_HELP,ar as reportCommand};
