import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as T,b as O,c as U,d as L,g as G}from"./chunk-H3R5ZJB3.mjs";import{a as W,b as q,c as B,d as V,e as H,f as J,g as K}from"./chunk-6OKBN3ER.mjs";import"./chunk-QT2ATPGP.mjs";import{e as g,f as b,g as M,h as P,i as C,n as R}from"./chunk-Z3THHOV7.mjs";import{a as A}from"./chunk-KOWKOGNJ.mjs";import{y as j}from"./chunk-PXCLHZA7.mjs";import"./chunk-WH5KLUDW.mjs";import"./chunk-D6ZX2PBV.mjs";import"./chunk-3CZTZGR3.mjs";import{j as I,k as F,l as D}from"./chunk-BI2A2VHH.mjs";import"./chunk-K5PS23ZZ.mjs";import"./chunk-2XZQA26H.mjs";import"./chunk-LSC3XWXC.mjs";import{b as N}from"./chunk-Y6PDTB3L.mjs";import"./chunk-UH32MEYV.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-5U5H4LAF.mjs";import{a as _}from"./chunk-FSWQR6ZN.mjs";import{a as f}from"./chunk-3BEQTNCK.mjs";import"./chunk-3MOOX5Q2.mjs";import"./chunk-EGE45SWK.mjs";import"./chunk-3MDRZ67H.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-BTSQROBY.mjs";import"./chunk-PPGT7FDP.mjs";import"./chunk-4V7T26U5.mjs";import{a as E,d as y,e as l,f as S}from"./chunk-GUH6SEHT.mjs";import"./chunk-DIWSRN5Z.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XXSCVMIQ.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-QBTB3T6B.mjs";import{a as p,c as h}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";var se="(fleet)",oe={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function Y(n,t,e){let i=n.steps.filter(o=>o.live?.state==="not-sent");if(i.length>0)throw new h("AUDIT_WRITES",`${t}: a drift audit only reads, and ${i.map(o=>`${o.position} ${o.name} (${o.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let s=new Map;for(let o of n.steps){let a=o.uses==="assert"||o.server===void 0?se:o.server,m=s.get(a);m||s.set(a,m={site:a,drifted:!1,unreachable:!1,checks:[]});let w=o.live?.unreachable?"unreachable":(o.live&&oe[o.live.state])??"not-checked";m.checks.push({check:`${o.position} ${o.name}`,state:w,found:o.live?.text??o.note??""}),w==="drift"&&(m.drifted=!0),w==="unreachable"&&(m.unreachable=!0)}let r=[...s.values()],d=o=>r.filter(a=>a[o]).map(a=>a.site);return{kind:"enginectl-drift-audit",version:1,name:n.name,file:t,at:new Date(e).toISOString(),drifted:d("drifted"),unreachable:d("unreachable"),sites:r}}var z=n=>`${n.filter(t=>t.state==="holds").length}/${n.filter(t=>t.state==="holds"||t.state==="drift").length} hold`,Q=n=>n.state==="drift"||n.state==="unreachable";function X(n){let{drifted:t,unreachable:e,sites:i}=n,s=r=>`${r}${e.length} of ${i.length} site(s) could not be read: ${e.join(", ")}`;return t.length>0?`DRIFT at ${t.length} of ${i.length} site(s): ${t.join(", ")}${e.length?`; ${e.length} could not be read: ${e.join(", ")}`:""}`:e.length>0?s("UNREACHABLE: "):`no drift: every check holds at ${i.length} site(s)`}var v=n=>n.drifted?"drift":n.unreachable?"unreachable":"ok";function Z(n){let t=[`drift audit of "${n.name}" at ${n.at}: ${X(n)}`],e=Math.max(...n.sites.map(s=>s.site.length),4),i=Math.max(...n.sites.map(s=>v(s).length),5);for(let s of n.sites){t.push(`  ${s.site.padEnd(e)}  ${(v(s)==="ok"?"ok":v(s).toUpperCase()).padEnd(i)}  ${z(s.checks)}`);for(let r of s.checks)Q(r)&&t.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return t.join(`
`)}function ee(n){let e=[`## ${n.drifted.length?"\u{1F7E5}":n.unreachable.length?"\u{1F7E7}":"\u{1F7E9}"} ${l(n.name)}: ${l(X(n))}`,""];e.push(`${S(n.file)} \xB7 read at ${n.at} with GET requests only`,""),e.push("| site | result | checks | what drifted or could not be read |","|---|---|---|---|");for(let i of n.sites){let s=i.checks.filter(Q).map(r=>`${l(r.check)}: ${l(r.found)}`).join("<br>");e.push(`| ${l(i.site)} | ${v(i)==="ok"?"ok":`**${v(i)}**`} | ${z(i.checks)} | ${s} |`)}return y(`${e.join(`
`)}
`)}var ae={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function te(n){let e=[`## ${n.failsNow>0?"\u274C":n.wouldWait>0?"\u23F3":"\u{1F50D}"} ${l(n.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${n.failsNow} step run(s) fail now, ${n.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let r of n.steps){let d=r.live?ae[r.live.state]:{icon:"\xB7",word:"planned"},o=r.live?.text.replace(/^a write(; )?/,"")??r.note??"";e.push(`| ${d.icon} | ${r.position.replace(/^\[|\]$/g,"")} | ${l(r.name)} | ${d.word}${o?`: ${l(o)}`:""} |`)}let i=n.steps.filter(r=>r.live?.unprovable);if(i.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let r of i)e.push(`- ${r.position.replace(/^\[|\]$/g,"")} ${l(r.name)}: ${l(r.live.unprovable)}`)}let s="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",s,E(n.text).replaceAll(s,"'''"),s,"","</details>",""),y(e.join(`
`))}import{resolve as k}from"node:path";var le=`Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request, so it needs no secret: one not set stands in, masked, and a
warning names it. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

With --live, the preflight before a change window: every read-only step (gates, checks, reads)
runs for real, once and without waiting, and says what it finds now: it holds, it would wait
(and for what), or it FAILS NOW; later steps see the values read. Only GET requests are sent,
whatever a step or the server does: every write is shown and not sent. Its requests carry the
credentials: every secret it uses must be set.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would (with --live: against the embedded emulator,
                     each server a site with its own state). With --emulator --live, also:
${q.replace(/^ {2}/gm,"    ")}
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
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`,de={var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},ci:{type:"string"},...W};async function De(n,t){let{values:e,positionals:i}=_("plan",n,de);if(e.help)return t.stdout(`${le}
`),p.ok;if(i.length!==1)throw new h("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${i.length}`);let s=D(e.only,e.skip);if(A(t,e.ci),B(e)&&!(e.emulator&&e.live))throw new h("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");await H(e);let r=V(e,t.env);if(e.out!==void 0&&!e.live)throw new h("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new h("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new h("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new h("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let d=F(e.var),{pipeline:o,sources:a,unsetSecrets:m}=await I(i[0],{...t,env:r},{vars:d,emulator:e.emulator,selection:s,dryRun:!e.live});if(!e.live){let u=O(m.map($=>`secrets.${$}`));u&&t.stderr(`enginectl: warning: ${u}
`);let c=await j(o,T(r,m),{selection:s});return t.stdout(`plan of "${f(c.name)}": no request is made
${f(c.text)}
`),p.ok}let w=e.out===void 0?void 0:k(t.cwd,e.out),ne=["out","summary","json"].flatMap(u=>e[u]===void 0?[]:[b(`--${u}`,e[u],t.cwd)]);M(ne,[...P(i[0],a,t.cwd),...K(e).map(u=>b("an emulator state (--state)",u,t.cwd))]);let x=async u=>{let{plan:c,saved:$}=await G({pipeline:o,sources:a,vars:d,selection:s,env:r},{signal:t.signal,emulatorUrl:u},Date.now());if(t.signal.aborted)return t.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted;if(e.expect)return ue(c,{file:i[0],json:e.json,summary:e.summary},t);if(t.stdout(`live plan of "${f(c.name)}": GET requests only; no write is sent
${f(c.text)}
`),t.stdout(`${c.failsNow} step run(s) fail now, ${c.wouldWait} would wait
`),e.summary!==void 0&&await g(k(t.cwd,e.summary),te(c)),w){for(let[ie,re]of U($.servers))t.stderr(`warning: ${f(L(ie,re))}
`);await g(w,`${JSON.stringify($,null,2)}
`),t.stdout(f(`plan: ${w} (run it with enginectl run ${i[0]} --plan ${e.out})
`))}return c.failsNow>0?p.failed:p.ok};return e.emulator?J(e,void 0,x):x(void 0)}async function ue(n,t,e){let i=Y(n,t.file,Date.now());e.stdout(`${f(Z(i))}
`);let s=ee(i),r=t.summary===void 0?void 0:k(e.cwd,t.summary);t.json!==void 0&&await g(k(e.cwd,t.json),`${JSON.stringify(i,null,2)}
`),r&&await g(r,s);let d=[],o=await C([R(A(e),e.env,a=>e.stdout(`${a}
`),{summaryFile:r})],{warn:a=>d.push(a),mask:a=>a}).ended({outcome:i.drifted.length||i.unreachable.length?"failure":"success",markdown:()=>s});for(let a of[...o,...d])e.stderr(`warning: ${f(a)}
`);return i.drifted.length>0?p.failed:i.unreachable.length>0?p.unreachable:p.ok}export{de as OPTIONS,le as PLAN_HELP,De as planCommand};
