import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as c}from"./chunk-TZARXKME.mjs";import{a as A,b as L,c as D,d as y,e as _,f as C,h as x,i as M,j as G,k as X,l as q,n as V,o as Y,p as b,q as re,u as te}from"./chunk-PCHPM3GW.mjs";import{e as I,f as J,h as F,i as W,m as K}from"./chunk-3GOKB4UI.mjs";import{a as O}from"./chunk-EW74HRH6.mjs";import{b as Q}from"./chunk-VXOYGBQH.mjs";import{a as Z,g as ee}from"./chunk-E33JLMEZ.mjs";import{b as U}from"./chunk-KZDBQLSD.mjs";import{b as k}from"./chunk-R5RFSW2F.mjs";import{f as S,l as R,r as B,w as H}from"./chunk-PQSDJSVU.mjs";import{a as z}from"./chunk-L4VCQHX6.mjs";import{a as h}from"./chunk-DJA6MMAV.mjs";import{b as $,c as E}from"./chunk-3J3FP5I5.mjs";import{a as T,b as w}from"./chunk-TUALRWO6.mjs";import{d as v}from"./chunk-UUA7ILDL.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-6FJLGLEX.mjs";import"./chunk-RLXVL7QD.mjs";import"./chunk-RBSOY5YP.mjs";import{c as N}from"./chunk-MSFJVINB.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-VP3LLZ6O.mjs";import{b as P}from"./chunk-QYUEQ7AK.mjs";import"./chunk-5AIDX52M.mjs";import{a as g,c as p}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";async function ne(r,t,e){let o;try{o=await t(r)}catch(i){throw new p("BAD_REPORT",`report --merge: cannot read ${r} (${i.code??i.message})`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote"})}let m=pe(o);if(m===void 0&&!me(o))throw new p("BAD_REPORT",`report --merge: ${r} is neither a JSON report (--report-json) nor a journal (--journal)`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, not a summary, HTML or JUnit file"});if(m===void 0)return{source:r,report:w(c(R(o,r,e)))};if(N(m,1e3))throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: it nests more than ${1e3} levels deep`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"});let s=T.safeParse(m);if(s.success)return{source:r,report:s.data};let n=s.error.issues[0];throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: ${n.path.join(".")||"(top)"}: ${n.message}`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"})}function me(r){let t=r.indexOf(`
`);try{let e=JSON.parse(t<0?r:r.slice(0,t));return e!==null&&typeof e=="object"&&"t"in e}catch{return!1}}function pe(r){if(r.trimStart().startsWith("{"))try{let t=JSON.parse(r);return t&&typeof t=="object"&&"t"in t?void 0:t}catch{return}}function se(r){return{line:t=>r(`${t}
`),sectionStart:()=>!1,sectionEnd:()=>{},annotate:()=>!1}}async function ie(r,t,e){let o=await ee(r,t),m=[];for(let i=0;i<o.waves.length;i++){let l=await new re(r,t,i+1).read();for(let u of o.waves[i]){let d=(await te(r,t,u))?.siteRun??l.owners.get(u)?.siteRun;if(d===void 0)continue;let a=await B(r,d).catch(()=>{});if(!a)continue;let f=`${r.url} run ${d}`;m.push({source:`${o.over} ${u}: run ${d}`,report:w(c(R(a.text,f,e)))})}}if(m.length===0)throw new p("BAD_ARGUMENTS",`report --merge: no site of sharded run ${t} has started yet`,{hint:"start its workers: enginectl run FILE --store URL --run ID --shard I/N"});let s=[];for(let i=0;i<o.shards;i++)(await r.list(Z(t).workers(i))).length===0&&s.push(i+1);let n=b(m,{covers:{key:o.over,values:o.waves.flat()}});return s.length&&n.merged&&(n.merged.noReport.push(...s.map(i=>`shard ${i}/${o.shards} (no worker started)`)),n.outcome="failure"),{report:n,missingShards:s,sites:o.waves.flat().length}}var ue=`Usage: enginectl report JOURNAL [options]
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
${D}
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           render the run of that id from the run store, as from its journal
  --merge            merge the reports or journals named (reports of one pipeline)
  --force            with --merge: merge reports of different pipelines too
  --webhook URL      POST the JSON report (as --report-json writes it) to URL; the URL is a secret
                     (masked everywhere); a failure is a warning, never the exit code
  --ci NAME          put the summary where a CI system shows it: ${k.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 the run (or every job of the fleet) succeeded, 1 it failed, was cancelled or
killed, a step is in doubt or a job has no report, 2 invalid input.`;async function nr(r,t){let{values:e,positionals:o}=z("report",r,{...L,merge:{type:"boolean"},force:{type:"boolean"},store:{type:"string"},run:{type:"string"},ci:{type:"string"},webhook:{type:"string"}});if(e.help)return t.stdout(`${ue}
`),g.ok;O(t,e.ci);let m=new U,n={webhook:e.webhook===void 0?void 0:X(e.webhook,m,"--webhook","BAD_ARGUMENTS"),masker:m};if(e.force&&!e.merge)throw new p("BAD_ARGUMENTS","report: --force goes with --merge");let i=e.merge?"a report to merge":"the journal (JOURNAL)";if(J(C(y(e),t.cwd),o.map(f=>I(i,f,t.cwd))),e.merge&&e.run!==void 0)return de(o,e,t,n);if(e.merge)return fe(o,e,t,n);let{state:l}=await Q("report",o,e,t),u=c(l),d=new V(se(t.stdout));u.steps.forEach(f=>d.stepFinished(f,`[${f.step+1}]`));let a=M(u);return t.stdout(`${Y(a.report)}
`),j(()=>a.report,e,t,n,u.outcome==="success"&&!u.steps.some(f=>f.inDoubt&&!f.decision))}async function de(r,t,e,o){if(r.length>0)throw new p("BAD_ARGUMENTS","report --merge --run ID reads the sharded run from the store: name no file");let m=H("report",t.store,e.env,e.cwd,"--run names a sharded run of a run store: "),{report:s}=await ie(m,t.run,S(e.env));return ae(s,e),j(()=>s,t,e,o,s.outcome==="success"&&!s.steps.some(n=>n.inDoubt&&!n.decision))}function ae(r,t){for(let e of $(r))t.stdout(`${e.status==="success"?"\u2714":"\u2716"} ${h(e.label)}: ${e.status==="no report"?e.detail:`${e.status} (${e.detail})`}${e.source&&e.source!==e.label?`  ${h(e.source)}`:""}
`);t.stdout(`fleet "${h(r.pipeline.name)}": ${r.outcome} in ${P(r.durationMs)} (${E(r)}; ${r.counts.total} step run(s): ${v(r.counts)})
`)}async function fe(r,t,e,o){if(r.length===0)throw new p("BAD_ARGUMENTS","report --merge: no report named",{hint:"enginectl report --merge reports/*.json --summary fleet.md"});let m=[];for(let n of r)m.push(await ne(n,e.readFile,S(e.env)));let s=b(m,{force:t.force===!0});return ae(s,e),j(()=>s,t,e,o,s.outcome==="success"&&!s.steps.some(n=>n.inDoubt&&!n.decision))}async function j(r,t,e,{webhook:o,masker:m},s){let n=await _(y(t),e.cwd),i=a=>e.stdout(`${a}
`),l=[],d=await F([G(n,{said:a=>i(`report: ${a}`)}),...o?[q(o,{env:e.env,said:i})]:[],K(O(e),e.env,i,{summaryFile:n.summary,fullReport:n.json??n.html})],{warn:a=>l.push(a),mask:a=>m.mask(a)}).ended(W(r(),a=>A(r(),{fullReport:a.fullReport})));for(let a of d)e.stderr(`enginectl: ${x.code}: ${a}
`);for(let a of l)e.stderr(`enginectl: warning: ${h(a)}
`);return s&&d.length===0?g.ok:g.failed}export{ue as REPORT_HELP,nr as reportCommand};
