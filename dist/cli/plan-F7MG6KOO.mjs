import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{e as y,g as S}from"./chunk-YBTQ2TJW.mjs";import"./chunk-DYVMXLWP.mjs";import"./chunk-E65I7XO3.mjs";import{a as T,b as N,c as j,d as D,e as M}from"./chunk-JTM6GMWU.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-F2F24H5K.mjs";import{b as k,c as x,d as A}from"./chunk-7NAUKINH.mjs";import"./chunk-STZBV4BT.mjs";import"./chunk-SFYQ7R7E.mjs";import"./chunk-QT2ATPGP.mjs";import{a as h,b as E}from"./chunk-Q77VDUTW.mjs";import"./chunk-6CQNGAKA.mjs";import{a as b}from"./chunk-E4M3T3EB.mjs";import{c as $}from"./chunk-IGA4IKHF.mjs";import"./chunk-PZS4FPBV.mjs";import"./chunk-FWC5MIAS.mjs";import"./chunk-ZHJZE6KQ.mjs";import{c as m,d as a}from"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as u,c as d}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";var C="(fleet)",G={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function O(t,n,e){let s=t.steps.filter(i=>i.live?.state==="not-sent");if(s.length>0)throw new d("AUDIT_WRITES",`${n}: a drift audit only reads, and ${s.map(i=>`${i.position} ${i.name} (${i.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let r=new Map;for(let i of t.steps){let l=i.uses==="assert"||i.server===void 0?C:i.server,f=r.get(l);f||r.set(l,f={site:l,drifted:!1,checks:[]});let c=(i.live&&G[i.live.state])??"not-checked";f.checks.push({check:`${i.position} ${i.name}`,state:c,found:i.live?.text??i.note??""}),c==="drift"&&(f.drifted=!0)}let o=[...r.values()];return{kind:"enginectl-drift-audit",version:1,name:t.name,file:n,at:new Date(e).toISOString(),drifted:o.filter(i=>i.drifted).map(i=>i.site),sites:o}}var P=t=>`${t.filter(n=>n.state==="holds").length}/${t.filter(n=>n.state!=="not-checked").length} hold`;function R(t){return t.drifted.length===0?`no drift: every check holds at ${t.sites.length} site(s)`:`DRIFT at ${t.drifted.length} of ${t.sites.length} site(s): ${t.drifted.join(", ")}`}function F(t){let n=[`drift audit of "${t.name}" at ${t.at}: ${R(t)}`],e=Math.max(...t.sites.map(s=>s.site.length),4);for(let s of t.sites){n.push(`  ${s.site.padEnd(e)}  ${s.drifted?"DRIFT":"ok   "}  ${P(s.checks)}`);for(let r of s.checks)r.state==="drift"&&n.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return n.join(`
`)}function U(t){let n=[`## ${t.drifted.length?"\u{1F7E5}":"\u{1F7E9}"} ${a(t.name)}: ${a(R(t))}`,""];n.push(`\`${a(t.file)}\` \xB7 read at ${t.at} with GET requests only`,""),n.push("| site | result | checks | what drifted |","|---|---|---|---|");for(let e of t.sites){let s=e.checks.filter(r=>r.state==="drift").map(r=>`${a(r.check)}: ${a(r.found)}`).join("<br>");n.push(`| ${a(e.site)} | ${e.drifted?"**drift**":"ok"} | ${P(e.checks)} | ${s} |`)}return m(`${n.join(`
`)}
`)}var _={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function I(t){let e=[`## ${t.failsNow>0?"\u274C":t.wouldWait>0?"\u23F3":"\u{1F50D}"} ${a(t.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${t.failsNow} step run(s) fail now, ${t.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let o of t.steps){let i=o.live?_[o.live.state]:{icon:"\xB7",word:"planned"},l=o.live?.text.replace(/^a write(; )?/,"")??o.note??"";e.push(`| ${i.icon} | ${o.position.replace(/^\[|\]$/g,"")} | ${a(o.name)} | ${i.word}${l?`: ${a(l)}`:""} |`)}let s=t.steps.filter(o=>o.live?.unprovable);if(s.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let o of s)e.push(`- ${o.position.replace(/^\[|\]$/g,"")} ${a(o.name)}: ${a(o.live.unprovable)}`)}let r="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",r,t.text.replaceAll(r,"'''"),r,"","</details>",""),m(e.join(`
`))}import{resolve as v}from"node:path";var W=`Usage: enginectl plan FILE [options]

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
${N.replace(/^ {2}/gm,"    ")}
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
site drifted), 2 invalid input.`;async function de(t,n){let{values:e,positionals:s}=b("plan",t,{var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},...T});if(e.help)return n.stdout(`${W}
`),u.ok;if(s.length!==1)throw new d("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${s.length}`);let r=A(e.only,e.skip);if(j(e)&&!(e.emulator&&e.live))throw new d("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");let o=D(e,n.env);if(e.out!==void 0&&!e.live)throw new d("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new d("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new d("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new d("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let i=x(e.var),{pipeline:l,sources:f}=await k(s[0],{...n,env:o},{vars:i,emulator:e.emulator,selection:r});if(!e.live){let w=await y(l,o,{selection:r});return n.stdout(`plan of "${w.name}": no request is made
${w.text}
`),u.ok}let c=e.out===void 0?void 0:v(n.cwd,e.out),g=async w=>{let{plan:p,saved:L}=await S({pipeline:l,sources:f,vars:i,selection:r,env:o},{signal:n.signal,emulatorUrl:w},Date.now());return n.signal.aborted?(n.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),u.interrupted):e.expect?q(p,{file:s[0],json:e.json,summary:e.summary},n):(n.stdout(`live plan of "${p.name}": GET requests only; no write is sent
${p.text}
`),n.stdout(`${p.failsNow} step run(s) fail now, ${p.wouldWait} would wait
`),e.summary!==void 0&&await h(v(n.cwd,e.summary),I(p)),c&&(await h(c,`${JSON.stringify(L,null,2)}
`),n.stdout(`plan: ${c} (run it with enginectl run ${s[0]} --plan ${e.out})
`)),p.failsNow>0?u.failed:u.ok)};return e.emulator?M(e,void 0,g):g(void 0)}async function q(t,n,e){let s=O(t,n.file,Date.now());e.stdout(`${F(s)}
`);let r=U(s),o=n.summary===void 0?void 0:v(e.cwd,n.summary);n.json!==void 0&&await h(v(e.cwd,n.json),`${JSON.stringify(s,null,2)}
`),o&&await h(o,r);let i=await E($(e.env),e.env,()=>r,s.drifted.length?"failure":"success",{summaryFile:o});i.problem&&e.stderr(`warning: ${i.problem}
`);for(let l of i.finish)e.stdout(`${l}
`);return s.drifted.length>0?u.failed:u.ok}export{W as PLAN_HELP,de as planCommand};
