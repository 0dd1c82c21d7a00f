import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as l}from"./chunk-WOWGSFEQ.mjs";import{a as A,b as T,c as I,d as k,e as J,f as _,h as C,i as M,j as G,k as X,l as q,n as V,o as Y,p as S,q as te,s as oe}from"./chunk-UQLYT2JO.mjs";import{e as U,f as D,h as F,i as B,m as K}from"./chunk-IU7U2MVL.mjs";import{a as y}from"./chunk-EW74HRH6.mjs";import{b as Q}from"./chunk-P2TYU4PW.mjs";import{a as Z,g as ee,k as re}from"./chunk-JYCNVK6P.mjs";import"./chunk-JEAK6UNT.mjs";import"./chunk-IASEUTAH.mjs";import"./chunk-SQBCQCS6.mjs";import"./chunk-JQ2F5QNC.mjs";import"./chunk-NBSLKUJH.mjs";import"./chunk-7ZSVOTAE.mjs";import"./chunk-AWWMYYCR.mjs";import{b as L}from"./chunk-KZDBQLSD.mjs";import"./chunk-ODKN3ZZ4.mjs";import{b as j}from"./chunk-R5RFSW2F.mjs";import{D as H,f as O,l as b,y as W}from"./chunk-MCWMRLPA.mjs";import{a as z}from"./chunk-L4VCQHX6.mjs";import{a as c}from"./chunk-DJA6MMAV.mjs";import{e as E,f as N}from"./chunk-XWKUUFGD.mjs";import{a as x,b as R}from"./chunk-K2353NRG.mjs";import{d as $}from"./chunk-5PKOWVWT.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-7XIF3O5X.mjs";import"./chunk-BTQ6WZQA.mjs";import"./chunk-76HYHGJQ.mjs";import{c as P}from"./chunk-DDGOEYDW.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-FUHHALRG.mjs";import{b as v}from"./chunk-QYUEQ7AK.mjs";import"./chunk-F2F24H5K.mjs";import"./chunk-5AIDX52M.mjs";import{a as w,c as p}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";async function se(r,t,e){let o;try{o=await t(r)}catch(s){throw new p("BAD_REPORT",`report --merge: cannot read ${r} (${s.code??s.message})`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote"})}let n=ue(o);if(n===void 0&&!me(o))throw new p("BAD_REPORT",`report --merge: ${r} is neither a JSON report (--report-json) nor a journal (--journal)`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, not a summary, HTML or JUnit file"});if(n===void 0)return{source:r,report:R(l(b(o,r,e)))};if(P(n,1e3))throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: it nests more than ${1e3} levels deep`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"});let d=x.safeParse(n);if(d.success)return{source:r,report:d.data};let i=d.error.issues[0];throw new p("BAD_REPORT",`report --merge: ${r} is not a JSON report of this enginectl: ${i.path.join(".")||"(top)"}: ${i.message}`,{hint:"give the JSON reports (--report-json) or journals (--journal) the jobs wrote, with the same enginectl version"})}function me(r){let t=r.indexOf(`
`);try{let e=JSON.parse(t<0?r:r.slice(0,t));return e!==null&&typeof e=="object"&&"t"in e}catch{return!1}}function ue(r){if(r.trimStart().startsWith("{"))try{let t=JSON.parse(r);return t&&typeof t=="object"&&"t"in t?void 0:t}catch{return}}function ie(r){return{line:t=>r(`${t}
`),sectionStart:()=>!1,sectionEnd:()=>{},annotate:()=>!1}}async function ae(r,t,e){let o=await ee(r,t),n=[];for(let s=0;s<o.waves.length;s++){let f=await new te(r,t,s+1).read();for(let h of o.waves[s]){let m=(await oe(r,t,h))?.siteRun??f.owners.get(h)?.siteRun;if(m===void 0)continue;let a=await W(r,m).catch(()=>{});if(!a)continue;let g=`${r.url} run ${m}`;n.push({source:`${o.over} ${h}: run ${m}`,report:R(l(b(a.text,g,e)))})}}if(n.length===0)throw new p("BAD_ARGUMENTS",`report --merge: no site of sharded run ${t} has started yet`,{hint:"start its workers: enginectl run FILE --store URL --run ID --shard I/N"});let d=[];for(let s=0;s<o.shards;s++)(await r.list(Z(t).workers(s))).length===0&&d.push(s+1);let i=S(n,re(o,o.waves.flat()));return d.length&&i.merged&&(i.merged.noReport.push(...d.map(s=>`shard ${s}/${o.shards} (no worker started)`)),i.outcome="failure"),{report:i,missingShards:d,sites:o.waves.flat().length}}var fe=`Usage: enginectl report JOURNAL [options]
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
${I}
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           render the run of that id from the run store, as from its journal
  --merge            merge the reports or journals named (reports of one pipeline)
  --force            with --merge: merge reports of different pipelines too
  --expect-shards N  with --merge FILE...: the files are the JSON reports of a sharded run's workers
                     (run --shard I/N --report-json F); each of shards 1 to N with no report is
                     named and fails the fleet
  --webhook URL      POST the JSON report (as --report-json writes it) to URL; the URL is a secret
                     (masked everywhere); a failure is a warning, never the exit code
  --ci NAME          put the summary where a CI system shows it: ${j.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 the run (or every job of the fleet) succeeded, 1 it failed, was cancelled or
killed, a step is in doubt or a job has no report, 2 invalid input.`;async function pr(r,t){let{values:e,positionals:o}=z("report",r,{...T,merge:{type:"boolean"},force:{type:"boolean"},store:{type:"string"},run:{type:"string"},ci:{type:"string"},webhook:{type:"string"},"expect-shards":{type:"string"}});if(e.help)return t.stdout(`${fe}
`),w.ok;y(t,e.ci);let n=new L,i={webhook:e.webhook===void 0?void 0:X(e.webhook,n,"--webhook","BAD_ARGUMENTS"),masker:n};if(e.force&&!e.merge)throw new p("BAD_ARGUMENTS","report: --force goes with --merge");let s=ge(e["expect-shards"],e.merge===!0,e.run!==void 0),f=e.merge?"a report to merge":"the journal (JOURNAL)";if(D(_(k(e),t.cwd),o.map(u=>U(f,u,t.cwd))),e.merge&&e.run!==void 0)return he(o,e,t,i);if(e.merge)return ce(o,{...e,expectShards:s},t,i);let{state:h}=await Q("report",o,e,t),m=l(h),a=new V(ie(t.stdout));m.steps.forEach(u=>a.stepFinished(u,`[${u.step+1}]`));let g=M(m);return t.stdout(`${Y(g.report)}
`),pe(()=>g.report,e,t,i,m.outcome==="success"&&!m.steps.some(u=>u.inDoubt&&!u.decision))}async function he(r,t,e,o){if(r.length>0)throw new p("BAD_ARGUMENTS","report --merge --run ID reads the sharded run from the store: name no file");let n=H("report",t.store,e.env,e.cwd,"--run names a sharded run of a run store: "),{report:d}=await ae(n,t.run,O(e.env));return de(d,t,e,o)}function de(r,t,e,o){return le(r,e),pe(()=>r,t,e,o,r.outcome==="success"&&!r.steps.some(n=>n.inDoubt&&!n.decision))}function le(r,t){for(let e of E(r))t.stdout(`${e.status==="success"?"\u2714":"\u2716"} ${c(e.label)}: ${e.status==="no report"?e.detail:`${e.status} (${e.detail})`}${e.source&&e.source!==e.label?`  ${c(e.source)}`:""}
`);t.stdout(`fleet "${c(r.pipeline.name)}": ${r.outcome} in ${v(r.durationMs)} (${N(r)}; ${r.counts.total} step run(s): ${$(r.counts)})
`)}async function ce(r,t,e,o){if(r.length===0)throw new p("BAD_ARGUMENTS","report --merge: no report named",{hint:"enginectl report --merge reports/*.json --summary fleet.md"});let n=[];for(let i of r)n.push(await se(i,e.readFile,O(e.env)));let d=S(n,{force:t.force===!0,expectShards:t.expectShards});return de(d,t,e,o)}function ge(r,t,e){if(r!==void 0){if(!t||e)throw new p("BAD_ARGUMENTS",`report: --expect-shards goes with --merge FILE... (${e?"with --store and --run the manifest knows the shards":"it merges the workers' reports"})`,{hint:"enginectl report --merge shard-*.json --expect-shards 8"});if(!/^[1-9][0-9]*$/.test(r))throw new p("BAD_ARGUMENTS",`report: --expect-shards ${r}: give the number of shards (1 or more)`,{hint:"as enginectl shard --shards said: --expect-shards 8"});return Number(r)}}async function pe(r,t,e,{webhook:o,masker:n},d){let i=await J(k(t),e.cwd),s=a=>e.stdout(`${a}
`),f=[],m=await F([G(i,{said:a=>s(`report: ${a}`)}),...o?[q(o,{env:e.env,said:s})]:[],K(y(e),e.env,s,{summaryFile:i.summary,fullReport:i.json??i.html})],{warn:a=>f.push(a),mask:a=>n.mask(a)}).ended(B(r(),a=>A(r(),{fullReport:a.fullReport})));for(let a of m)e.stderr(`enginectl: ${C.code}: ${a}
`);for(let a of f)e.stderr(`enginectl: warning: ${c(a)}
`);return d&&m.length===0?w.ok:w.failed}export{fe as REPORT_HELP,pr as reportCommand};
