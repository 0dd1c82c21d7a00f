import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as D}from"./chunk-ZFWKG4KX.mjs";import{a as U,b as I,c as R,d as L,e as G,f as _}from"./chunk-PPFIZHP7.mjs";import"./chunk-QT2ATPGP.mjs";import{d as g,e as k,f as N,g as j,h as T,m as C}from"./chunk-CGNSXX5D.mjs";import{a as b}from"./chunk-5DZBVWNG.mjs";import{r as S}from"./chunk-SII4HU3W.mjs";import"./chunk-7QCAR7RZ.mjs";import{e as O,f as M,g as P}from"./chunk-WBG2FU5P.mjs";import"./chunk-HB2E3DM4.mjs";import"./chunk-XP36Q324.mjs";import"./chunk-SFBJ47HQ.mjs";import"./chunk-Z7H6I6D2.mjs";import"./chunk-UMRMJOOY.mjs";import"./chunk-ODKN3ZZ4.mjs";import{b as E}from"./chunk-XJSAWOAF.mjs";import{a as F}from"./chunk-DDBPXRCH.mjs";import{a as f}from"./chunk-G6IUI72E.mjs";import"./chunk-43YSTZS7.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-REJWNMPZ.mjs";import"./chunk-KQJFZZ32.mjs";import"./chunk-TYBMTELL.mjs";import"./chunk-7QNP6ON6.mjs";import{a as x,d as $,e as l}from"./chunk-FVOHT4EB.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-PKVCKXMO.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-5AIDX52M.mjs";import{a as p,c as h}from"./chunk-JI3UUNSM.mjs";import"./chunk-HDDVMAG4.mjs";var z="(fleet)",Q={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function W(t,n,e){let i=t.steps.filter(o=>o.live?.state==="not-sent");if(i.length>0)throw new h("AUDIT_WRITES",`${n}: a drift audit only reads, and ${i.map(o=>`${o.position} ${o.name} (${o.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let s=new Map;for(let o of t.steps){let a=o.uses==="assert"||o.server===void 0?z:o.server,c=s.get(a);c||s.set(a,c={site:a,drifted:!1,unreachable:!1,checks:[]});let w=o.live?.unreachable?"unreachable":(o.live&&Q[o.live.state])??"not-checked";c.checks.push({check:`${o.position} ${o.name}`,state:w,found:o.live?.text??o.note??""}),w==="drift"&&(c.drifted=!0),w==="unreachable"&&(c.unreachable=!0)}let r=[...s.values()],d=o=>r.filter(a=>a[o]).map(a=>a.site);return{kind:"enginectl-drift-audit",version:1,name:t.name,file:n,at:new Date(e).toISOString(),drifted:d("drifted"),unreachable:d("unreachable"),sites:r}}var q=t=>`${t.filter(n=>n.state==="holds").length}/${t.filter(n=>n.state==="holds"||n.state==="drift").length} hold`,B=t=>t.state==="drift"||t.state==="unreachable";function V(t){let{drifted:n,unreachable:e,sites:i}=t,s=r=>`${r}${e.length} of ${i.length} site(s) could not be read: ${e.join(", ")}`;return n.length>0?`DRIFT at ${n.length} of ${i.length} site(s): ${n.join(", ")}${e.length?`; ${e.length} could not be read: ${e.join(", ")}`:""}`:e.length>0?s("UNREACHABLE: "):`no drift: every check holds at ${i.length} site(s)`}var v=t=>t.drifted?"drift":t.unreachable?"unreachable":"ok";function H(t){let n=[`drift audit of "${t.name}" at ${t.at}: ${V(t)}`],e=Math.max(...t.sites.map(s=>s.site.length),4),i=Math.max(...t.sites.map(s=>v(s).length),5);for(let s of t.sites){n.push(`  ${s.site.padEnd(e)}  ${(v(s)==="ok"?"ok":v(s).toUpperCase()).padEnd(i)}  ${q(s.checks)}`);for(let r of s.checks)B(r)&&n.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return n.join(`
`)}function J(t){let e=[`## ${t.drifted.length?"\u{1F7E5}":t.unreachable.length?"\u{1F7E7}":"\u{1F7E9}"} ${l(t.name)}: ${l(V(t))}`,""];e.push(`\`${l(t.file)}\` \xB7 read at ${t.at} with GET requests only`,""),e.push("| site | result | checks | what drifted or could not be read |","|---|---|---|---|");for(let i of t.sites){let s=i.checks.filter(B).map(r=>`${l(r.check)}: ${l(r.found)}`).join("<br>");e.push(`| ${l(i.site)} | ${v(i)==="ok"?"ok":`**${v(i)}**`} | ${q(i.checks)} | ${s} |`)}return $(`${e.join(`
`)}
`)}var X={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function K(t){let e=[`## ${t.failsNow>0?"\u274C":t.wouldWait>0?"\u23F3":"\u{1F50D}"} ${l(t.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${t.failsNow} step run(s) fail now, ${t.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let r of t.steps){let d=r.live?X[r.live.state]:{icon:"\xB7",word:"planned"},o=r.live?.text.replace(/^a write(; )?/,"")??r.note??"";e.push(`| ${d.icon} | ${r.position.replace(/^\[|\]$/g,"")} | ${l(r.name)} | ${d.word}${o?`: ${l(o)}`:""} |`)}let i=t.steps.filter(r=>r.live?.unprovable);if(i.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let r of i)e.push(`- ${r.position.replace(/^\[|\]$/g,"")} ${l(r.name)}: ${l(r.live.unprovable)}`)}let s="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",s,x(t.text).replaceAll(s,"'''"),s,"","</details>",""),$(e.join(`
`))}import{resolve as y}from"node:path";var Z=`Usage: enginectl plan FILE [options]

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
${I.replace(/^ {2}/gm,"    ")}
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
  --ci NAME          with --expect: put the audit where a CI system shows its summary: ${E.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`,ee={var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},ci:{type:"string"},...U};async function Ee(t,n){let{values:e,positionals:i}=F("plan",t,ee);if(e.help)return n.stdout(`${Z}
`),p.ok;if(i.length!==1)throw new h("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${i.length}`);let s=P(e.only,e.skip);if(b(n,e.ci),R(e)&&!(e.emulator&&e.live))throw new h("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");let r=L(e,n.env);if(e.out!==void 0&&!e.live)throw new h("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new h("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new h("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new h("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let d=M(e.var),{pipeline:o,sources:a}=await O(i[0],{...n,env:r},{vars:d,emulator:e.emulator,selection:s});if(!e.live){let u=await S(o,r,{selection:s});return n.stdout(`plan of "${f(u.name)}": no request is made
${f(u.text)}
`),p.ok}let c=e.out===void 0?void 0:y(n.cwd,e.out),w=["out","summary","json"].flatMap(u=>e[u]===void 0?[]:[k(`--${u}`,e[u],n.cwd)]);N(w,[...j(i[0],a,n.cwd),..._(e).map(u=>k("an emulator state (--state)",u,n.cwd))]);let A=async u=>{let{plan:m,saved:Y}=await D({pipeline:o,sources:a,vars:d,selection:s,env:r},{signal:n.signal,emulatorUrl:u},Date.now());return n.signal.aborted?(n.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted):e.expect?te(m,{file:i[0],json:e.json,summary:e.summary},n):(n.stdout(`live plan of "${f(m.name)}": GET requests only; no write is sent
${f(m.text)}
`),n.stdout(`${m.failsNow} step run(s) fail now, ${m.wouldWait} would wait
`),e.summary!==void 0&&await g(y(n.cwd,e.summary),K(m)),c&&(await g(c,`${JSON.stringify(Y,null,2)}
`),n.stdout(f(`plan: ${c} (run it with enginectl run ${i[0]} --plan ${e.out})
`))),m.failsNow>0?p.failed:p.ok)};return e.emulator?G(e,void 0,A):A(void 0)}async function te(t,n,e){let i=W(t,n.file,Date.now());e.stdout(`${f(H(i))}
`);let s=J(i),r=n.summary===void 0?void 0:y(e.cwd,n.summary);n.json!==void 0&&await g(y(e.cwd,n.json),`${JSON.stringify(i,null,2)}
`),r&&await g(r,s);let d=[],o=await T([C(b(e),e.env,a=>e.stdout(`${a}
`),{summaryFile:r})],{warn:a=>d.push(a),mask:a=>a}).ended({outcome:i.drifted.length||i.unreachable.length?"failure":"success",markdown:()=>s});for(let a of[...o,...d])e.stderr(`warning: ${f(a)}
`);return i.drifted.length>0?p.failed:i.unreachable.length>0?p.unreachable:p.ok}export{ee as OPTIONS,Z as PLAN_HELP,Ee as planCommand};
