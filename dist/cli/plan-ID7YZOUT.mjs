import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{e as k,g as N}from"./chunk-YBTQ2TJW.mjs";import"./chunk-DYVMXLWP.mjs";import"./chunk-E65I7XO3.mjs";import{a as M,b as O,c as D,d as P,e as R,f as F}from"./chunk-V7TNFKN7.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-F2F24H5K.mjs";import{b as E,c as S,d as b}from"./chunk-7NAUKINH.mjs";import"./chunk-STZBV4BT.mjs";import"./chunk-SFYQ7R7E.mjs";import"./chunk-QT2ATPGP.mjs";import{c as w,d as g,e as x,f as A,g as T}from"./chunk-VDVYCPPC.mjs";import"./chunk-6CQNGAKA.mjs";import{a as j}from"./chunk-E4M3T3EB.mjs";import{c as y}from"./chunk-IGA4IKHF.mjs";import"./chunk-PZS4FPBV.mjs";import"./chunk-FWC5MIAS.mjs";import"./chunk-ZHJZE6KQ.mjs";import{c as m,d as a}from"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as p,c as u}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var B="(fleet)",V={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function U(n,t,e){let s=n.steps.filter(i=>i.live?.state==="not-sent");if(s.length>0)throw new u("AUDIT_WRITES",`${t}: a drift audit only reads, and ${s.map(i=>`${i.position} ${i.name} (${i.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let r=new Map;for(let i of n.steps){let l=i.uses==="assert"||i.server===void 0?B:i.server,f=r.get(l);f||r.set(l,f={site:l,drifted:!1,checks:[]});let h=(i.live&&V[i.live.state])??"not-checked";f.checks.push({check:`${i.position} ${i.name}`,state:h,found:i.live?.text??i.note??""}),h==="drift"&&(f.drifted=!0)}let o=[...r.values()];return{kind:"enginectl-drift-audit",version:1,name:n.name,file:t,at:new Date(e).toISOString(),drifted:o.filter(i=>i.drifted).map(i=>i.site),sites:o}}var I=n=>`${n.filter(t=>t.state==="holds").length}/${n.filter(t=>t.state!=="not-checked").length} hold`;function L(n){return n.drifted.length===0?`no drift: every check holds at ${n.sites.length} site(s)`:`DRIFT at ${n.drifted.length} of ${n.sites.length} site(s): ${n.drifted.join(", ")}`}function C(n){let t=[`drift audit of "${n.name}" at ${n.at}: ${L(n)}`],e=Math.max(...n.sites.map(s=>s.site.length),4);for(let s of n.sites){t.push(`  ${s.site.padEnd(e)}  ${s.drifted?"DRIFT":"ok   "}  ${I(s.checks)}`);for(let r of s.checks)r.state==="drift"&&t.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return t.join(`
`)}function G(n){let t=[`## ${n.drifted.length?"\u{1F7E5}":"\u{1F7E9}"} ${a(n.name)}: ${a(L(n))}`,""];t.push(`\`${a(n.file)}\` \xB7 read at ${n.at} with GET requests only`,""),t.push("| site | result | checks | what drifted |","|---|---|---|---|");for(let e of n.sites){let s=e.checks.filter(r=>r.state==="drift").map(r=>`${a(r.check)}: ${a(r.found)}`).join("<br>");t.push(`| ${a(e.site)} | ${e.drifted?"**drift**":"ok"} | ${I(e.checks)} | ${s} |`)}return m(`${t.join(`
`)}
`)}var J={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function _(n){let e=[`## ${n.failsNow>0?"\u274C":n.wouldWait>0?"\u23F3":"\u{1F50D}"} ${a(n.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${n.failsNow} step run(s) fail now, ${n.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let o of n.steps){let i=o.live?J[o.live.state]:{icon:"\xB7",word:"planned"},l=o.live?.text.replace(/^a write(; )?/,"")??o.note??"";e.push(`| ${i.icon} | ${o.position.replace(/^\[|\]$/g,"")} | ${a(o.name)} | ${i.word}${l?`: ${a(l)}`:""} |`)}let s=n.steps.filter(o=>o.live?.unprovable);if(s.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let o of s)e.push(`- ${o.position.replace(/^\[|\]$/g,"")} ${a(o.name)}: ${a(o.live.unprovable)}`)}let r="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",r,n.text.replaceAll(r,"'''"),r,"","</details>",""),m(e.join(`
`))}import{resolve as v}from"node:path";var H=`Usage: enginectl plan FILE [options]

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
${O.replace(/^ {2}/gm,"    ")}
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
site drifted), 2 invalid input.`;async function we(n,t){let{values:e,positionals:s}=j("plan",n,{var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},...M});if(e.help)return t.stdout(`${H}
`),p.ok;if(s.length!==1)throw new u("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${s.length}`);let r=b(e.only,e.skip);if(D(e)&&!(e.emulator&&e.live))throw new u("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");let o=P(e,t.env);if(e.out!==void 0&&!e.live)throw new u("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new u("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new u("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new u("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let i=S(e.var),{pipeline:l,sources:f}=await E(s[0],{...t,env:o},{vars:i,emulator:e.emulator,selection:r});if(!e.live){let d=await k(l,o,{selection:r});return t.stdout(`plan of "${d.name}": no request is made
${d.text}
`),p.ok}let h=e.out===void 0?void 0:v(t.cwd,e.out),W=["out","summary","json"].flatMap(d=>e[d]===void 0?[]:[g(`--${d}`,e[d],t.cwd)]);x(W,[...A(s[0],f,t.cwd),...F(e).map(d=>g("an emulator state (--state)",d,t.cwd))]);let $=async d=>{let{plan:c,saved:q}=await N({pipeline:l,sources:f,vars:i,selection:r,env:o},{signal:t.signal,emulatorUrl:d},Date.now());return t.signal.aborted?(t.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted):e.expect?K(c,{file:s[0],json:e.json,summary:e.summary},t):(t.stdout(`live plan of "${c.name}": GET requests only; no write is sent
${c.text}
`),t.stdout(`${c.failsNow} step run(s) fail now, ${c.wouldWait} would wait
`),e.summary!==void 0&&await w(v(t.cwd,e.summary),_(c)),h&&(await w(h,`${JSON.stringify(q,null,2)}
`),t.stdout(`plan: ${h} (run it with enginectl run ${s[0]} --plan ${e.out})
`)),c.failsNow>0?p.failed:p.ok)};return e.emulator?R(e,void 0,$):$(void 0)}async function K(n,t,e){let s=U(n,t.file,Date.now());e.stdout(`${C(s)}
`);let r=G(s),o=t.summary===void 0?void 0:v(e.cwd,t.summary);t.json!==void 0&&await w(v(e.cwd,t.json),`${JSON.stringify(s,null,2)}
`),o&&await w(o,r);let i=await T(y(e.env),e.env,()=>r,s.drifted.length?"failure":"success",{summaryFile:o});i.problem&&e.stderr(`warning: ${i.problem}
`);for(let l of i.finish)e.stdout(`${l}
`);return s.drifted.length>0?p.failed:p.ok}export{H as PLAN_HELP,we as planCommand};
