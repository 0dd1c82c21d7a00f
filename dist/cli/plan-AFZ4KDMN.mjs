import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as P,b as C,c as W,d as q,g as B,h as V,p as ee}from"./chunk-OTNZQX5P.mjs";import{a as J,b as K,c as Y,d as z,e as Q,f as X,g as Z}from"./chunk-KXSEW2I6.mjs";import"./chunk-QT2ATPGP.mjs";import{e as g,f as x,g as I,h as F,i as U,n as _}from"./chunk-DR7W6RVU.mjs";import{a as E}from"./chunk-AT7XPZ3T.mjs";import"./chunk-A7PTBOPM.mjs";import{a as M}from"./chunk-IM6HRC72.mjs";import"./chunk-DFZ2N624.mjs";import"./chunk-AQQATGCE.mjs";import"./chunk-NYZWVP6M.mjs";import"./chunk-2FLXTI3E.mjs";import"./chunk-PTS3BEV4.mjs";import"./chunk-YNNIQKA6.mjs";import"./chunk-E5H5WF5W.mjs";import"./chunk-WRN2XRWR.mjs";import{b as T}from"./chunk-O24G6PQ2.mjs";import{s as R}from"./chunk-3SRYJXPB.mjs";import{l as D,m as L,n as G}from"./chunk-TKSCFCFP.mjs";import"./chunk-SOGTZVS6.mjs";import"./chunk-KZHP2SCZ.mjs";import{a as H}from"./chunk-DY4SYJHE.mjs";import"./chunk-B3SUDAHC.mjs";import"./chunk-IIMVO2C7.mjs";import"./chunk-J3JAVBK2.mjs";import{d as m,e as A}from"./chunk-W3YLBX4Z.mjs";import"./chunk-X4SSYGXB.mjs";import"./chunk-AUYIVFS4.mjs";import"./chunk-XDWFOUPK.mjs";import"./chunk-DDLHSVKF.mjs";import"./chunk-VZBMWS65.mjs";import"./chunk-NBENTZOW.mjs";import"./chunk-7G6XRFGQ.mjs";import{a as j,d as y,e as l,f as O}from"./chunk-GUH6SEHT.mjs";import"./chunk-K5ISAZJV.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-UWXU5CI3.mjs";import"./chunk-Q3WUFOEX.mjs";import"./chunk-W2VV73B2.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as p,c as h}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var pe="(fleet)",he={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function te(n,t,e){let i=n.steps.filter(o=>o.live?.state==="not-sent");if(i.length>0)throw new h("AUDIT_WRITES",`${t}: a drift audit only reads, and ${i.map(o=>`${o.position} ${o.name} (${o.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let s=new Map;for(let o of n.steps){let a=o.uses==="assert"||o.server===void 0?pe:o.server,f=s.get(a);f||s.set(a,f={site:a,drifted:!1,unreachable:!1,checks:[]});let w=o.live?.unreachable?"unreachable":(o.live&&he[o.live.state])??"not-checked";f.checks.push({check:`${o.position} ${o.name}`,state:w,found:o.live?.text??o.note??""}),w==="drift"&&(f.drifted=!0),w==="unreachable"&&(f.unreachable=!0)}let r=[...s.values()],d=o=>r.filter(a=>a[o]).map(a=>a.site);return{kind:"enginectl-drift-audit",version:1,name:n.name,file:t,at:new Date(e).toISOString(),drifted:d("drifted"),unreachable:d("unreachable"),sites:r}}var ne=n=>`${n.filter(t=>t.state==="holds").length}/${n.filter(t=>t.state==="holds"||t.state==="drift").length} hold`,ie=n=>n.state==="drift"||n.state==="unreachable";function re(n){let{drifted:t,unreachable:e,sites:i}=n,s=r=>`${r}${e.length} of ${i.length} site(s) could not be read: ${e.join(", ")}`;return t.length>0?`DRIFT at ${t.length} of ${i.length} site(s): ${t.join(", ")}${e.length?`; ${e.length} could not be read: ${e.join(", ")}`:""}`:e.length>0?s("UNREACHABLE: "):`no drift: every check holds at ${i.length} site(s)`}var v=n=>n.drifted?"drift":n.unreachable?"unreachable":"ok";function se(n){let t=[`drift audit of "${n.name}" at ${n.at}: ${re(n)}`],e=Math.max(...n.sites.map(s=>s.site.length),4),i=Math.max(...n.sites.map(s=>v(s).length),5);for(let s of n.sites){t.push(`  ${s.site.padEnd(e)}  ${(v(s)==="ok"?"ok":v(s).toUpperCase()).padEnd(i)}  ${ne(s.checks)}`);for(let r of s.checks)ie(r)&&t.push(`  ${"".padEnd(e)}    ${r.check}: ${r.found}`)}return t.join(`
`)}function oe(n){let e=[`## ${n.drifted.length?"\u{1F7E5}":n.unreachable.length?"\u{1F7E7}":"\u{1F7E9}"} ${l(n.name)}: ${l(re(n))}`,""];e.push(`${O(n.file)} \xB7 read at ${n.at} with GET requests only`,""),e.push("| site | result | checks | what drifted or could not be read |","|---|---|---|---|");for(let i of n.sites){let s=i.checks.filter(ie).map(r=>`${l(r.check)}: ${l(r.found)}`).join("<br>");e.push(`| ${l(i.site)} | ${v(i)==="ok"?"ok":`**${v(i)}**`} | ${ne(i.checks)} | ${s} |`)}return y(`${e.join(`
`)}
`)}var fe={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function ae(n){let e=[`## ${n.failsNow>0?"\u274C":n.wouldWait>0?"\u23F3":"\u{1F50D}"} ${l(n.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${n.failsNow} step run(s) fail now, ${n.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let r of n.steps){let d=r.live?fe[r.live.state]:{icon:"\xB7",word:"planned"},o=r.live?.text.replace(/^a write(; )?/,"")??r.note??"";e.push(`| ${d.icon} | ${r.position.replace(/^\[|\]$/g,"")} | ${l(r.name)} | ${d.word}${o?`: ${l(o)}`:""} |`)}let i=n.steps.filter(r=>r.live?.unprovable);if(i.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let r of i)e.push(`- ${r.position.replace(/^\[|\]$/g,"")} ${l(r.name)}: ${l(r.live.unprovable)}`)}let s="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",s,j(n.text).replaceAll(s,"'''"),s,"","</details>",""),y(e.join(`
`))}import{resolve as k}from"node:path";var me=`Usage: enginectl plan FILE [options]

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
${K.replace(/^ {2}/gm,"    ")}
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
  --history F        a journal of earlier runs: each step type's write durations at each server
                     give the p95 a write is expected to take in its window, as run --history
                     reads them (repeatable)
  --ci NAME          with --expect: put the audit where a CI system shows its summary: ${T.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`,we={var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},ci:{type:"string"},history:{type:"string",multiple:!0},...J};async function He(n,t){let{values:e,positionals:i}=H("plan",n,we);if(e.help)return t.stdout(`${me}
`),p.ok;if(i.length!==1)throw new h("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${i.length}`);let s=G(e.only,e.skip);if(E(t,e.ci),Y(e)&&!(e.emulator&&e.live))throw new h("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");await Q(e);let r=z(e,t.env);if(e.out!==void 0&&!e.live)throw new h("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new h("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new h("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new h("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let d=L(e.var),{pipeline:o,sources:a,unsetSecrets:f}=await D(i[0],{...t,env:r},{vars:d,emulator:e.emulator,selection:s,dryRun:!e.live}),w=await ee(e,t,void 0,"plan");if(!e.live){let u=C(f.map($=>`secrets.${$}`));u&&t.stderr(`enginectl: warning: ${u}
`);let c=await M(o,P(r,f),{selection:s,history:w});return t.stdout(`plan of "${A(c.name)}": no request is made
${m(c.text)}
`),p.ok}let b=e.out===void 0?void 0:k(t.cwd,e.out),le=["out","summary","json"].flatMap(u=>e[u]===void 0?[]:[x(`--${u}`,e[u],t.cwd)]);I(le,[...F(i[0],a,t.cwd),...Z(e).map(u=>x("an emulator state (--state)",u,t.cwd))]);let S=t.clock??R(),N=async u=>{let{plan:c,saved:$,unpinned:de}=await V({pipeline:o,sources:a,vars:d,selection:s,env:r,history:w},{signal:t.signal,emulatorUrl:u,now:S.now},S.now());if(t.signal.aborted)return t.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted;if(e.expect)return ge(c,{file:i[0],json:e.json,summary:e.summary},t);if(t.stdout(`live plan of "${A(c.name)}": GET requests only; no write is sent
${m(c.text)}
`),t.stdout(`${c.failsNow} step run(s) fail now, ${c.wouldWait} would wait
`),e.summary!==void 0&&await g(k(t.cwd,e.summary),ae(c)),b){for(let[ue,ce]of W($.servers))t.stderr(`warning: ${m(q(ue,ce))}
`);de&&t.stderr(`warning: ${B}
`),await g(b,`${JSON.stringify($,null,2)}
`),t.stdout(m(`plan: ${b} (run it with enginectl run ${i[0]} --plan ${e.out})
`))}return c.failsNow>0?p.failed:p.ok};return e.emulator?X(e,void 0,N):N(void 0)}async function ge(n,t,e){let i=te(n,t.file,Date.now());e.stdout(`${m(se(i))}
`);let s=oe(i),r=t.summary===void 0?void 0:k(e.cwd,t.summary);t.json!==void 0&&await g(k(e.cwd,t.json),`${JSON.stringify(i,null,2)}
`),r&&await g(r,s);let d=[],o=await U([_(E(e),e.env,a=>e.stdout(`${a}
`),{summaryFile:r})],{warn:a=>d.push(a),mask:a=>a}).ended({outcome:i.drifted.length||i.unreachable.length?"failure":"success",markdown:()=>s});for(let a of[...o,...d])e.stderr(`warning: ${m(a)}
`);return i.drifted.length>0?p.failed:i.unreachable.length>0?p.unreachable:p.ok}export{we as OPTIONS,me as PLAN_HELP,He as planCommand};
