import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as U,b as I,e as R}from"./chunk-EWY2DKAA.mjs";import{a as G,b as _,c as W,d as q,e as B,f as V}from"./chunk-L755XC2Z.mjs";import"./chunk-QT2ATPGP.mjs";import{d as v,e as k,f as T,g as O,h as M,m as F}from"./chunk-NJCRWLMF.mjs";import{a as b}from"./chunk-5JDNYACA.mjs";import{r as j}from"./chunk-PDCZBCIH.mjs";import"./chunk-PFKVNODR.mjs";import{e as P,f as C,g as D}from"./chunk-6OF5JUV3.mjs";import"./chunk-JH26KUDU.mjs";import"./chunk-7AOWMPWM.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-OZUJ5UJT.mjs";import"./chunk-NZS4CDM2.mjs";import"./chunk-H76BLFXS.mjs";import"./chunk-ODKN3ZZ4.mjs";import{b as N}from"./chunk-AK7T77PR.mjs";import"./chunk-YHQYLPWT.mjs";import{a as L}from"./chunk-QSJG675I.mjs";import{a as f}from"./chunk-EAYVXTMU.mjs";import"./chunk-3MDRZ67H.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-REJWNMPZ.mjs";import"./chunk-L5J537BL.mjs";import"./chunk-LZLXTYYJ.mjs";import"./chunk-XZQD6HMY.mjs";import{a as E,d as $,e as l,f as S}from"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-ZDNYOOSL.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-5AIDX52M.mjs";import{a as p,c as h}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";var te="(fleet)",ne={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function H(t,n,e){let i=t.steps.filter(o=>o.live?.state==="not-sent");if(i.length>0)throw new h("AUDIT_WRITES",`${n}: a drift audit only reads, and ${i.map(o=>`${o.position} ${o.name} (${o.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let s=new Map;for(let o of t.steps){let a=o.uses==="assert"||o.server===void 0?te:o.server,c=s.get(a);c||s.set(a,c={site:a,drifted:!1,unreachable:!1,checks:[]});let w=o.live?.unreachable?"unreachable":(o.live&&ne[o.live.state])??"not-checked";c.checks.push({check:`${o.position} ${o.name}`,state:w,found:o.live?.text??o.note??""}),w==="drift"&&(c.drifted=!0),w==="unreachable"&&(c.unreachable=!0)}let r=[...s.values()],d=o=>r.filter(a=>a[o]).map(a=>a.site);return{kind:"enginectl-drift-audit",version:1,name:t.name,file:n,at:new Date(e).toISOString(),drifted:d("drifted"),unreachable:d("unreachable"),sites:r}}var J=t=>`${t.filter(n=>n.state==="holds").length}/${t.filter(n=>n.state==="holds"||n.state==="drift").length} hold`,K=t=>t.state==="drift"||t.state==="unreachable";function Y(t){let{drifted:n,unreachable:e,sites:i}=t,s=r=>`${r}${e.length} of ${i.length} site(s) could not be read: ${e.join(", ")}`;return n.length>0?`DRIFT at ${n.length} of ${i.length} site(s): ${n.join(", ")}${e.length?`; ${e.length} could not be read: ${e.join(", ")}`:""}`:e.length>0?s("UNREACHABLE: "):`no drift: every check holds at ${i.length} site(s)`}var g=t=>t.drifted?"drift":t.unreachable?"unreachable":"ok";function z(t){let n=[`drift audit of "${t.name}" at ${t.at}: ${Y(t)}`],e=Math.max(...t.sites.map(s=>s.site.length),4),i=Math.max(...t.sites.map(s=>g(s).length),5);for(let s of t.sites){n.push(`  ${s.site.padEnd(e)}  ${(g(s)==="ok"?"ok":g(s).toUpperCase()).padEnd(i)}  ${J(s.checks)}`);for(let r of s.checks)K(r)&&n.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return n.join(`
`)}function Q(t){let e=[`## ${t.drifted.length?"\u{1F7E5}":t.unreachable.length?"\u{1F7E7}":"\u{1F7E9}"} ${l(t.name)}: ${l(Y(t))}`,""];e.push(`${S(t.file)} \xB7 read at ${t.at} with GET requests only`,""),e.push("| site | result | checks | what drifted or could not be read |","|---|---|---|---|");for(let i of t.sites){let s=i.checks.filter(K).map(r=>`${l(r.check)}: ${l(r.found)}`).join("<br>");e.push(`| ${l(i.site)} | ${g(i)==="ok"?"ok":`**${g(i)}**`} | ${J(i.checks)} | ${s} |`)}return $(`${e.join(`
`)}
`)}var ie={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function X(t){let e=[`## ${t.failsNow>0?"\u274C":t.wouldWait>0?"\u23F3":"\u{1F50D}"} ${l(t.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${t.failsNow} step run(s) fail now, ${t.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let r of t.steps){let d=r.live?ie[r.live.state]:{icon:"\xB7",word:"planned"},o=r.live?.text.replace(/^a write(; )?/,"")??r.note??"";e.push(`| ${d.icon} | ${r.position.replace(/^\[|\]$/g,"")} | ${l(r.name)} | ${d.word}${o?`: ${l(o)}`:""} |`)}let i=t.steps.filter(r=>r.live?.unprovable);if(i.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let r of i)e.push(`- ${r.position.replace(/^\[|\]$/g,"")} ${l(r.name)}: ${l(r.live.unprovable)}`)}let s="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",s,E(t.text).replaceAll(s,"'''"),s,"","</details>",""),$(e.join(`
`))}import{resolve as y}from"node:path";var re=`Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

With --live, the preflight before a change window: every read-only step (gates, checks, reads)
runs for real, once and without waiting, and says what it finds now: it holds, it would wait
(and for what), or it FAILS NOW; later steps see the values read. Only GET requests are sent,
whatever a step or the server does: every write is shown and not sent.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would (with --live: against the embedded emulator,
                     each server a site with its own state). With --emulator --live, also:
${_.replace(/^ {2}/gm,"    ")}
  --live             run the read-only steps for real, GET requests only (the preflight)
  --out F            with --live: save the plan to F (JSON, secrets masked); run --plan F runs it
                     and refuses when the state it saw has moved
  --expect           with --live: a drift audit. The pipeline's checks (read-only steps: versions,
                     alerts, licenses, replication) are what every site is expected to hold now;
                     a row per site (a server of the pipeline), exit 1 when one drifted, 3
                     when none drifted but one could not be read (its server unreachable: no
                     drift, it is not known); a pipeline that writes is refused
  --json F           with --expect: the audit as JSON (the sites that drifted, those that could
                     not be read, each check found)
  --summary F        with --live: the live plan as Markdown (an MR note, a PR comment); with
                     --expect the audit (also the job summary in GitHub Actions and Azure Pipelines)
  --ci NAME          with --expect: put the audit where a CI system shows its summary: ${N.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`,se={var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},ci:{type:"string"},...G};async function Me(t,n){let{values:e,positionals:i}=L("plan",t,se);if(e.help)return n.stdout(`${re}
`),p.ok;if(i.length!==1)throw new h("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${i.length}`);let s=D(e.only,e.skip);if(b(n,e.ci),W(e)&&!(e.emulator&&e.live))throw new h("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");let r=q(e,n.env);if(e.out!==void 0&&!e.live)throw new h("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new h("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new h("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new h("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let d=C(e.var),{pipeline:o,sources:a}=await P(i[0],{...n,env:r},{vars:d,emulator:e.emulator,selection:s});if(!e.live){let u=await j(o,r,{selection:s});return n.stdout(`plan of "${f(u.name)}": no request is made
${f(u.text)}
`),p.ok}let c=e.out===void 0?void 0:y(n.cwd,e.out),w=["out","summary","json"].flatMap(u=>e[u]===void 0?[]:[k(`--${u}`,e[u],n.cwd)]);T(w,[...O(i[0],a,n.cwd),...V(e).map(u=>k("an emulator state (--state)",u,n.cwd))]);let A=async u=>{let{plan:m,saved:x}=await R({pipeline:o,sources:a,vars:d,selection:s,env:r},{signal:n.signal,emulatorUrl:u},Date.now());if(n.signal.aborted)return n.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted;if(e.expect)return oe(m,{file:i[0],json:e.json,summary:e.summary},n);if(n.stdout(`live plan of "${f(m.name)}": GET requests only; no write is sent
${f(m.text)}
`),n.stdout(`${m.failsNow} step run(s) fail now, ${m.wouldWait} would wait
`),e.summary!==void 0&&await v(y(n.cwd,e.summary),X(m)),c){for(let[Z,ee]of U(x.servers))n.stderr(`warning: ${f(I(Z,ee))}
`);await v(c,`${JSON.stringify(x,null,2)}
`),n.stdout(f(`plan: ${c} (run it with enginectl run ${i[0]} --plan ${e.out})
`))}return m.failsNow>0?p.failed:p.ok};return e.emulator?B(e,void 0,A):A(void 0)}async function oe(t,n,e){let i=H(t,n.file,Date.now());e.stdout(`${f(z(i))}
`);let s=Q(i),r=n.summary===void 0?void 0:y(e.cwd,n.summary);n.json!==void 0&&await v(y(e.cwd,n.json),`${JSON.stringify(i,null,2)}
`),r&&await v(r,s);let d=[],o=await M([F(b(e),e.env,a=>e.stdout(`${a}
`),{summaryFile:r})],{warn:a=>d.push(a),mask:a=>a}).ended({outcome:i.drifted.length||i.unreachable.length?"failure":"success",markdown:()=>s});for(let a of[...o,...d])e.stderr(`warning: ${f(a)}
`);return i.drifted.length>0?p.failed:i.unreachable.length>0?p.unreachable:p.ok}export{se as OPTIONS,re as PLAN_HELP,Me as planCommand};
