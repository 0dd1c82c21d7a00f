import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as R,b as U,c as H,d as J,g as K,h as Y,m as re,q as se}from"./chunk-GU2QFOND.mjs";import{a as Q,b as X,c as Z,d as ee,e as te,f as ne,g as ie}from"./chunk-F2SJCLZM.mjs";import"./chunk-QT2ATPGP.mjs";import{e as v,f as E,g as L,h as D,i as B,n as V}from"./chunk-D6PEBZ6Z.mjs";import"./chunk-FLEJK6ZR.mjs";import{a as F}from"./chunk-2RPZ3VQX.mjs";import"./chunk-ALQKF2HS.mjs";import"./chunk-S6AWSBCI.mjs";import"./chunk-FS4R2FFS.mjs";import"./chunk-PJWYOYUT.mjs";import"./chunk-IE4JDKAU.mjs";import"./chunk-YZQ66RZ3.mjs";import{a as S}from"./chunk-CRCR5UPE.mjs";import{a as I}from"./chunk-UEYJNS5H.mjs";import"./chunk-YB763ELA.mjs";import"./chunk-ZTLXJAVK.mjs";import{b as C}from"./chunk-5S5YKYQC.mjs";import{O as q}from"./chunk-3LJ36IE7.mjs";import"./chunk-7VYCZVKY.mjs";import{m as G,n as _,o as W}from"./chunk-NECUPUWM.mjs";import"./chunk-6IEEONUA.mjs";import"./chunk-JTOROTH4.mjs";import{a as z}from"./chunk-DY4SYJHE.mjs";import"./chunk-OCWTDD7L.mjs";import"./chunk-B5B6H6SZ.mjs";import"./chunk-6DCNIRPS.mjs";import{d as m,e as x,f as g}from"./chunk-U4ZAGPRP.mjs";import"./chunk-M5WNKKJ4.mjs";import"./chunk-PAUM5UU5.mjs";import"./chunk-HTCSK6XY.mjs";import"./chunk-4HTAQX72.mjs";import"./chunk-HXLWJUD2.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import{a as T,d as k,e as u,f as P}from"./chunk-GUH6SEHT.mjs";import"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XBE3ELGE.mjs";import"./chunk-OFVGQUYN.mjs";import"./chunk-NKS7IU2N.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as p,c as h}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var ge="(fleet)",ve={holds:"holds","would-wait":"drift","fails-now":"drift","not-read":"not-checked","after-writes":void 0,"not-sent":void 0};function oe(n,t,e){let i=n.steps.filter(o=>o.live?.state==="not-sent");if(i.length>0)throw new h("AUDIT_WRITES",`${t}: a drift audit only reads, and ${i.map(o=>`${o.position} ${o.name} (${o.uses})`).join(", ")} would write`,{hint:"audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one"});let s=new Map;for(let o of n.steps){let a=o.uses==="assert"||o.server===void 0?ge:o.server,f=s.get(a);f||s.set(a,f={site:a,drifted:!1,unreachable:!1,checks:[]});let w=o.live?.unreachable?"unreachable":(o.live&&ve[o.live.state])??"not-checked";f.checks.push({check:`${o.position} ${o.name}`,state:w,found:o.live?.text??o.note??""}),w==="drift"&&(f.drifted=!0),w==="unreachable"&&(f.unreachable=!0)}let r=[...s.values()],l=o=>r.filter(a=>a[o]).map(a=>a.site);return{kind:"enginectl-drift-audit",version:1,name:n.name,file:t,at:new Date(e).toISOString(),drifted:l("drifted"),unreachable:l("unreachable"),sites:r}}var ae=n=>`${n.filter(t=>t.state==="holds").length}/${n.filter(t=>t.state==="holds"||t.state==="drift").length} hold`,le=n=>n.state==="drift"||n.state==="unreachable";function de(n){let{drifted:t,unreachable:e,sites:i}=n,s=r=>`${r}${e.length} of ${i.length} site(s) could not be read: ${e.join(", ")}`;return t.length>0?`DRIFT at ${t.length} of ${i.length} site(s): ${t.join(", ")}${e.length?`; ${e.length} could not be read: ${e.join(", ")}`:""}`:e.length>0?s("UNREACHABLE: "):`no drift: every check holds at ${i.length} site(s)`}var $=n=>n.drifted?"drift":n.unreachable?"unreachable":"ok";function ue(n){let t=[`drift audit of "${g(n.name)}" at ${n.at}: ${g(de(n))}`],e=Math.max(...n.sites.map(s=>s.site.length),4),i=Math.max(...n.sites.map(s=>$(s).length),5);for(let s of n.sites){t.push(`  ${g(s.site.padEnd(e))}  ${($(s)==="ok"?"ok":$(s).toUpperCase()).padEnd(i)}  ${ae(s.checks)}`);let r=" ".repeat(e+8);for(let l of s.checks)le(l)&&t.push(`  ${"".padEnd(e)}    ${g(`${l.check}: ${l.found}`,r)}`)}return t.join(`
`)}function ce(n){let e=[`## ${n.drifted.length?"\u{1F7E5}":n.unreachable.length?"\u{1F7E7}":"\u{1F7E9}"} ${u(n.name)}: ${u(de(n))}`,""];e.push(`${P(n.file)} \xB7 read at ${n.at} with GET requests only`,""),e.push("| site | result | checks | what drifted or could not be read |","|---|---|---|---|");for(let i of n.sites){let s=i.checks.filter(le).map(r=>`${u(r.check)}: ${u(r.found)}`).join("<br>");e.push(`| ${u(i.site)} | ${$(i)==="ok"?"ok":`**${$(i)}**`} | ${ae(i.checks)} | ${s} |`)}return k(`${e.join(`
`)}
`)}var $e={holds:{icon:"\u2705",word:"holds"},"would-wait":{icon:"\u23F3",word:"would wait"},"fails-now":{icon:"\u274C",word:"**fails now**"},"after-writes":{icon:"\u{1F501}",word:"after the writes above"},"not-sent":{icon:"\u270F\uFE0F",word:"not sent (a write)"},"not-read":{icon:"\u23ED\uFE0F",word:"not read"}};function pe(n){let e=[`## ${n.failsNow>0?"\u274C":n.wouldWait>0?"\u23F3":"\u{1F50D}"} ${u(n.name)}: live plan`,""];e.push(`Read now with GET requests only; no write was sent. ${n.failsNow} step run(s) fail now, ${n.wouldWait} would wait.`,""),e.push("| | # | step | now |","|---|---|---|---|");for(let r of n.steps){let l=r.live?$e[r.live.state]:{icon:"\xB7",word:"planned"},o=r.live?.text.replace(/^a write(; )?/,"")??r.note??"";e.push(`| ${l.icon} | ${r.position.replace(/^\[|\]$/g,"")} | ${u(r.name)} | ${l.word}${o?`: ${u(o)}`:""} |`)}let i=n.steps.filter(r=>r.live?.unprovable);if(i.length>0){e.push("","**Unverified until sent** (no GET request can prove it):","");for(let r of i)e.push(`- ${r.position.replace(/^\[|\]$/g,"")} ${u(r.name)}: ${u(r.live.unprovable)}`)}let s="```";return e.push("","<details><summary>Every call (secrets masked)</summary>","",s,T(n.text).replaceAll(s,"'''"),s,"","</details>",""),k(e.join(`
`))}import{resolve as b}from"node:path";var ye=`Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request, so it needs no secret: one not set stands in, masked, and a
warning names it. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

With --live, the preflight before a change window: every read-only step (gates, checks, reads)
runs for real, once and without waiting, and says what it finds now: it holds, it would wait
(and for what), or it FAILS NOW; later steps see the values read. Only GET requests are sent,
whatever a step or the server does: every write is shown and not sent. Its requests carry the
credentials: every secret it uses must be set, and each server is checked as run checks it (https://,
or allow-insecure-http) before the first request.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would (with --live: against the embedded emulator,
                     each server a site with its own state). With --emulator --live, also:
${X.replace(/^ {2}/gm,"    ")}
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
  --history F        a journal of earlier runs: each step type's write durations at each server's
                     URL give the p95 a write is expected to take in its window, as run --history
                     reads them (repeatable)
  --ci NAME          with --expect: put the audit where a CI system shows its summary: ${C.join(", ")}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`,ke={var:{type:"string",multiple:!0},only:{type:"string",multiple:!0},skip:{type:"string",multiple:!0},emulator:{type:"boolean"},live:{type:"boolean"},out:{type:"string"},expect:{type:"boolean"},json:{type:"string"},summary:{type:"string"},ci:{type:"string"},history:{type:"string",multiple:!0},...Q};async function et(n,t){let{values:e,positionals:i}=z("plan",n,ke);if(e.help)return t.stdout(`${ye}
`),p.ok;if(i.length!==1)throw new h("BAD_ARGUMENTS",`plan: expected one pipeline FILE, got ${i.length}`);let s=W(e.only,e.skip),r=I(S(t,e.ci),d=>t.stdout(`${d}
`));if(t.maskerMade?.(r),Z(e)&&!(e.emulator&&e.live))throw new h("BAD_ARGUMENTS","plan: --state, --user, --fault and --fail-replication go with --emulator --live");await te(e);let l=ee(e,t.env);if(e.out!==void 0&&!e.live)throw new h("BAD_ARGUMENTS","plan: --out goes with --live",{hint:"enginectl plan FILE --live --out plan.json"});if((e.expect||e.json!==void 0||e.summary!==void 0)&&!e.live)throw new h("BAD_ARGUMENTS","plan: --expect, --json and --summary go with --live",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});if(e.expect&&e.out!==void 0)throw new h("BAD_ARGUMENTS","plan: --out saves a plan to run, and a drift audit (--expect) is none",{hint:"audit with --expect --json F; save the plan of a release with --live --out F"});if(e.json!==void 0&&!e.expect)throw new h("BAD_ARGUMENTS","plan: --json goes with --expect (the drift audit); --out saves a live plan",{hint:"enginectl plan audit.yml --live --expect --json drift.json"});let o=_(e.var),{pipeline:a,sources:f,unsetSecrets:w}=await G(i[0],{...t,env:l},{vars:o,emulator:e.emulator,selection:s,dryRun:!e.live}),N=e.live?l:R(l,w),j=await se(e,t,{place:re(a,N,r),command:"plan"});if(!e.live){let d=U(w.map(y=>`secrets.${y}`));d&&t.stderr(`enginectl: warning: ${d}
`);let c=await F(a,N,{selection:s,history:j,masker:r});return t.stdout(`plan of "${x(c.name)}": no request is made
${m(c.text)}
`),p.ok}let A=e.out===void 0?void 0:b(t.cwd,e.out),he=["out","summary","json"].flatMap(d=>e[d]===void 0?[]:[E(`--${d}`,e[d],t.cwd)]);L(he,[...D(i[0],f,t.cwd),...ie(e).map(d=>E("an emulator state (--state)",d,t.cwd))]);let M=t.clock??q(),O=async d=>{let{plan:c,saved:y,unpinned:fe}=await Y({pipeline:a,sources:f,vars:o,selection:s,env:l,history:j,masker:r},{signal:t.signal,emulatorUrl:d,now:M.now},M.now());if(t.signal.aborted)return t.stderr(`plan: interrupted; what was read is partial, and nothing is saved
`),p.interrupted;if(e.expect)return be(c,{file:i[0],json:e.json,summary:e.summary},t);if(t.stdout(`live plan of "${x(c.name)}": GET requests only; no write is sent
${m(c.text)}
`),t.stdout(`${c.failsNow} step run(s) fail now, ${c.wouldWait} would wait
`),e.summary!==void 0&&await v(b(t.cwd,e.summary),pe(c)),A){for(let[me,we]of H(y.servers))t.stderr(`warning: ${m(J(me,we))}
`);fe&&t.stderr(`warning: ${K}
`),await v(A,`${JSON.stringify(y,null,2)}
`),t.stdout(m(`plan: ${A} (run it with enginectl run ${i[0]} --plan ${e.out})
`))}return c.failsNow>0?p.failed:p.ok};return e.emulator?ne(e,void 0,O):O(void 0)}async function be(n,t,e){let i=oe(n,t.file,Date.now());e.stdout(`${m(ue(i))}
`);let s=ce(i),r=t.summary===void 0?void 0:b(e.cwd,t.summary);t.json!==void 0&&await v(b(e.cwd,t.json),`${JSON.stringify(i,null,2)}
`),r&&await v(r,s);let l=[],o=await B([V(S(e),e.env,a=>e.stdout(`${a}
`),{summaryFile:r})],{warn:a=>l.push(a),mask:a=>a}).ended({outcome:i.drifted.length||i.unreachable.length?"failure":"success",markdown:()=>s});for(let a of[...o,...l])e.stderr(`warning: ${m(a)}
`);return i.drifted.length>0?p.failed:i.unreachable.length>0?p.unreachable:p.ok}export{ke as OPTIONS,ye as PLAN_HELP,et as planCommand};
