import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as z,b as K,c as Q}from"./chunk-MUA7GBPK.mjs";import{b as Y}from"./chunk-FLEJK6ZR.mjs";import{c as H}from"./chunk-S6AWSBCI.mjs";import"./chunk-IE4JDKAU.mjs";import{a as B}from"./chunk-CRCR5UPE.mjs";import{a as j}from"./chunk-UEYJNS5H.mjs";import{c as G,d as J,g as F,m as M}from"./chunk-QGJXYFTE.mjs";import{c as W}from"./chunk-YB763ELA.mjs";import"./chunk-ZTLXJAVK.mjs";import"./chunk-5S5YKYQC.mjs";import{d as _,f as D}from"./chunk-4PX4EJGD.mjs";import{O as k,h as x}from"./chunk-3LJ36IE7.mjs";import"./chunk-7VYCZVKY.mjs";import{n as V}from"./chunk-NECUPUWM.mjs";import"./chunk-6IEEONUA.mjs";import"./chunk-JTOROTH4.mjs";import{a as q}from"./chunk-DY4SYJHE.mjs";import"./chunk-OCWTDD7L.mjs";import"./chunk-B5B6H6SZ.mjs";import"./chunk-6DCNIRPS.mjs";import{e as i}from"./chunk-U4ZAGPRP.mjs";import"./chunk-4HTAQX72.mjs";import{f as c,i as C,k as y,l as P,m as S,n as T}from"./chunk-HXLWJUD2.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XBE3ELGE.mjs";import"./chunk-OFVGQUYN.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as ie}from"node:path";var oe=`Usage: enginectl verify JOURNAL [options]

Reads back the target of each call a run sent and never saw answered ("in doubt") and says
whether the server applied it: applied, not-applied or cannot-tell, with the evidence. It sends
only GET requests, to the servers of the pipeline that wrote the journal (the URLs and
credentials of those it reads from the environment, as for run; no target token), and changes
nothing: resume with run --resume JOURNAL --in-doubt verify (or verify-and-retry) to act on it.
With nothing in doubt it says so, asking the environment for nothing. A journal a run still
writes (its lock held by a live process; in a run store, its runner's lease renewed: the run's
fleet lease, or the worker lease of the sharded run whose site it is) is refused: the calls that
run has in flight are not in doubt; verify once it has ended. A stale lock or a lapsed lease is
said, and does not stop it. A pipeline whose servers read are not at the URLs the run recorded
(other --var values, another file) is refused (PIPELINE_NOT_THE_RUNS): a read of another server
says nothing of the call; a file changed since, its servers the run's, is said and read.

Read back: licensing/add and licensing/remove (the licenses against those recorded just before
the call), classes/create, update and delete (the entity), update/system (the Engine versions
of the target database; monitoring lags up to 2 minutes). update/vfs, replication/sync and
transaction-log/clear cannot be verified through the API: check on the server.

Options:
  --pipeline FILE    the pipeline that wrote the journal (default: the file its run named, from
                     where verify runs: verify from the run's checkout, or give it)
  --var NAME=VALUE   a var the servers read, as given to run (repeatable)
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           verify the run of that id in the run store
  -h, --help         show this help

Exit codes: 0 nothing is in doubt or every in-doubt call was settled (applied or not applied),
1 at least one cannot be told, 2 invalid input, the journal in use by a live run, or a pipeline
whose servers are not the run's,
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,ae={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Ue(u,t){let{values:n,positionals:s}=q("verify",u,ae);if(n.help)return t.stdout(`${oe}
`),a.ok;if(n.run===void 0&&s.length===1){let{warning:e}=W(ie(t.cwd,s[0]),"verify");e&&t.stderr(`enginectl: warning: ${i(e)}
`)}let{state:r,name:o}=await Y("verify",s,n,t,async(e,h,ne)=>{let re=(t.clock??k()).now();await H(e,h,ne,"verify",re,"Nothing was verified",{confirmed:!0,warn:se=>t.stderr(`enginectl: warning: ${i(se)}
`)})}),l=G(r);if(l.length===0)return t.stdout(`nothing is in doubt in ${i(o)}
`),a.ok;let g=n.pipeline??r.runs.at(-1).file,X=J(l),b=V(n.var),{pipeline:v,sources:Z}=await z(r,t,{given:n.pipeline,vars:b,readBack:X}),w=j(B(t),e=>t.stdout(`${e}
`));M(v,t.env,w);let E=K(r,{pipeline:v,sources:Z,vars:b,env:t.env,masker:w},l);Q(n.run===void 0?o:`run ${n.run}`,E,{named:r.runs.at(-1).file,after:"Nothing was read back"});let L=E.file;L.same||t.stderr(`enginectl: warning: ${i(le(g,L))}
`);let{now:R}=t.clock??k(),d=await F(r,{pipeline:v,env:t.env,masker:w,signal:t.signal,now:R});if(d.length===0)return t.stdout(`nothing is in doubt in ${i(o)}
`),a.ok;for(let e of d)t.stdout(i(`${e.verdict.padEnd(12)} "${e.name}" (${e.doubt.method} ${e.doubt.path}): ${e.evidence}`)+`
`);let p=e=>d.filter(h=>h.verdict===e).length;if(t.stdout(`${d.length} in doubt: ${p("applied")} applied, ${p("not-applied")} not applied, ${p("cannot-tell")} cannot tell
`),p("cannot-tell")===0)return a.ok;let $=n.run===void 0?"ID":c(n.run),f=r.parked&&_(r.parked,R()),m=x(r.runs.at(-1)),I=d.filter(e=>e.verdict==="cannot-tell").map(e=>e.matrix),N=[...new Map(I.filter(e=>!C(e,m)).map(e=>[JSON.stringify(e),e])).values()],U=y(m),O=`enginectl run ${c(g)} --store URL --continue ${$}${U} --in-doubt skip or retry`,ee=`${n.run===void 0?`--resume ${c(o)}`:`--store URL --resume ${$}`}`,A=(e,h="")=>`then: check on the server, then resume deciding: enginectl run ${c(g)} ${ee}${e} --in-doubt skip (applied) or retry (sent again)${h}`,te=f&&D(f)?["then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)"]:f?f.park.for==="window"?[`then: check on the server, then go on deciding: ${O}`]:[`then: check on the server, then decide: enginectl decide --store URL --run ${$} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${O}`]:[...N.length<I.length?[A(U)]:[],...N.map(e=>A(`${y(P(m,e))} --force`,`; it selects the call in doubt at ${T(e)}, outside the journal's last run (${S(m)??"every instance"}), and runs what else it selects that is not done (enginectl plan shows it)`))];for(let e of te)t.stdout(`${i(e)}
`);return a.failed}function le(u,t){let n="its servers are read as they are now";if(t.changed)return`${u} changed since the journal's run: ${n}`;let{missing:s}=t,r=s.map(l=>`secrets.${l}`).join(", "),o=s.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${s.length>1?"s":""} of ${r} masked, which verify is not given (its reads do not need ${s.length>1?"them":"it"}): give ${s.length>1?"them":"it"} to compare`;return`cannot tell whether ${u} changed since the journal's run: ${o}; ${n}`}export{ae as OPTIONS,oe as VERIFY_HELP,Ue as verifyCommand};
