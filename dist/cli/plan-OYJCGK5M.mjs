import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{e as x,g as j}from"./chunk-N6SAERNA.mjs";import"./chunk-ABOTGCZ2.mjs";import"./chunk-E65I7XO3.mjs";import{a as O,b as D,c as P,d as R,e as F,f as U}from"./chunk-CKQMC7NV.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-F2F24H5K.mjs";import{b as S,c as b,d as T}from"./chunk-PG2ELPIS.mjs";import"./chunk-EG2DGJOZ.mjs";import"./chunk-DZYNQJ4A.mjs";import"./chunk-QT2ATPGP.mjs";import{d as w,e as $,f as A,g as E,h as N}from"./chunk-TKSSXRYK.mjs";import"./chunk-OBO36EAH.mjs";import{a as M}from"./chunk-E4M3T3EB.mjs";import{b as k}from"./chunk-DY2EIHWV.mjs";import{a as f}from"./chunk-SDB6N7MJ.mjs";import"./chunk-EMABYJ3B.mjs";import"./chunk-PHMWQJ52.mjs";import"./chunk-ZHJZE6KQ.mjs";import{c as v,d as a}from"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as p,c as u}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var V="(fleet)",J={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function I(n,t,e){let s=n.steps.filter(i=>i.live?.state==="not-sent");if(s.length>0)throw new u("AUDIT_WRITES",`${t}: a drift audit only reads, and ${s.map(i=>`${i.position} ${i.name} (${i.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let r=new Map;for(let i of n.steps){let l=i.uses==="assert"||i.server===void 0?V:i.server,c=r.get(l);c||r.set(l,c={site:l,drifted:!1,checks:[]});let m=(i.live&&J[i.live.state])??"not-checked";c.checks.push({check:`${i.position} ${i.name}`,state:m,found:i.live?.text??i.note??""}),m==="drift"&&(c.drifted=!0)}let o=[...r.values()];return{kind:"enginectl-drift-audit",version:1,name:n.name,file:t,at:new Date(e).toISOString(),drifted:o.filter(i=>i.drifted).map(i=>i.site),sites:o}}var L=n=>`${n.filter(t=>t.state==="holds").length}/${n.filter(t=>t.state!=="not-checked").length} hold`;function C(n){return n.drifted.length===0?`no drift: every check holds at ${n.sites.length} site(s)`:`DRIFT at ${n.drifted.length} of ${n.sites.length} site(s): ${n.drifted.join(", ")}`}function G(n){let t=[`drift audit of "${n.name}" at ${n.at}: ${C(n)}`],e=Math.max(...n.sites.map(s=>s.site.length),4);for(let s of n.sites){t.push(`  ${s.site.padEnd(e)}  ${s.drifted?"DRIFT":"ok   "}  ${L(s.checks)}`);for(let r of s.checks)r.state==="drift"&&t.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return t.join(`
`)}function _(n){let t=[`## ${n.drifted.length?"\u{1F7E5}":"\u{1F7E9}"} ${a(n.name)}: ${a(C(n))}`,""];t.push(`\`${a(n.file)}\` \xB7 read at ${n.at} with GET requests only`,""),t.push("| site | result | checks | what drifted |","|---|---|---|---|");for(let e of n.sites){let s=e.checks.filter(r=>r.state==="drift").map(r=>`${a(r.check)}: ${a(r.found)}`).join("<br>");t.push(`| ${a(e.site)} | ${e.drifted?"**drift**":"ok"} | ${L(e.checks)} | ${s} |`)}return v(`${t.join(`
`)}
`)}var H={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function W(n){let e=[`## ${n.failsNow>0?"\u274C":n.wouldWait>0?"\u23F3":"\u{1F50D}"} ${a(n.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${n.failsNow} step run(s) fail now, ${n.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let o of n.steps){let i=o.live?H[o.live.state]:{icon:"\xB7",word:"planned"},l=o.live?.text.replace(/^a write(; )?/,"")??o.note??"";e.push(`| ${i.icon} | ${o.position.replace(/^\[|\]$/g,"")} | ${a(o.name)} | ${i.word}${l?`: ${a(l)}`:""} |`)}let s=n.steps.filter(o=>o.live?.unprovable);if(s.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let o of s)e.push(`- ${o.position.replace(/^\[|\]$/g,"")} ${a(o.name)}: ${a(o.live.unprovable)}`)}let r="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",r,n.text.replaceAll(r,"'''"),r,"","</details>",""),v(e.join(`
`))}import{resolve as g}from"node:path";var K=`Usage: enginectl plan FILE [options]

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
${D.replace(/^ {2}/gm,"    ")}
  --live             run the read-only steps for real, GET requests only (the preflight)
  --out F            with --live: save the plan to F (JSON, secrets masked); run --plan F runs it
                     and refuses when the state it saw has moved
  --expect           with --live: a drift audit. The pipeline's checks (read-only steps: versions,
                     alerts, licenses, replication) are what every site is expected to hold now;
                     a row per site (a server of the pipeline), exit 1 when one drifted; a
                     pipeline that writes is refused
  --json F           with --expect: the audit as JSON (the sites that drifted, each check found)
  --summary F        with --live: the live plan as Markdown (an MR note, a PR comment); with
                     --expect the audit (also the job summary in GitHub Actions and Azure Pipelines)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input.`;async function ve(n,t){let{values:e,positionals:s}=M("plan",n,{var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},...O});if(e.help)return t.stdout(`${K}
`),p.ok;if(s.length!==1)throw new u("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${s.length}`);let r=T(e.only,e.skip);if(P(e)&&!(e.emulator&&e.live))throw new u("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");let o=R(e,t.env);if(e.out!==void 0&&!e.live)throw new u("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new u("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new u("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new u("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let i=b(e.var),{pipeline:l,sources:c}=await S(s[0],{...t,env:o},{vars:i,emulator:e.emulator,selection:r});if(!e.live){let d=await x(l,o,{selection:r});return t.stdout(`plan of "${f(d.name)}": no request is made
${f(d.text)}
`),p.ok}let m=e.out===void 0?void 0:g(t.cwd,e.out),q=["out","summary","json"].flatMap(d=>e[d]===void 0?[]:[$(`--${d}`,e[d],t.cwd)]);A(q,[...E(s[0],c,t.cwd),...U(e).map(d=>$("an emulator state (--state)",d,t.cwd))]);let y=async d=>{let{plan:h,saved:B}=await j({pipeline:l,sources:c,vars:i,selection:r,env:o},{signal:t.signal,emulatorUrl:d},Date.now());return t.signal.aborted?(t.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted):e.expect?Y(h,{file:s[0],json:e.json,summary:e.summary},t):(t.stdout(`live plan of "${f(h.name)}": GET requests only; no write is sent
${f(h.text)}
`),t.stdout(`${h.failsNow} step run(s) fail now, ${h.wouldWait} would wait
`),e.summary!==void 0&&await w(g(t.cwd,e.summary),W(h)),m&&(await w(m,`${JSON.stringify(B,null,2)}
`),t.stdout(f(`plan: ${m} (run it with enginectl run ${s[0]} --plan ${e.out})
`))),h.failsNow>0?p.failed:p.ok)};return e.emulator?F(e,void 0,y):y(void 0)}async function Y(n,t,e){let s=I(n,t.file,Date.now());e.stdout(`${f(G(s))}
`);let r=_(s),o=t.summary===void 0?void 0:g(e.cwd,t.summary);t.json!==void 0&&await w(g(e.cwd,t.json),`${JSON.stringify(s,null,2)}
`),o&&await w(o,r);let i=await N(k(e.env),e.env,()=>r,s.drifted.length?"failure":"success",{summaryFile:o});i.problem&&e.stderr(`warning: ${f(i.problem)}
`);for(let l of i.finish)e.stdout(`${l}
`);return s.drifted.length>0?p.failed:p.ok}export{K as PLAN_HELP,ve as planCommand};
