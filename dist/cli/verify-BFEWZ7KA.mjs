import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as v}from"./chunk-FI76YJ2P.mjs";import{g as c}from"./chunk-DYVMXLWP.mjs";import{b as h}from"./chunk-E65I7XO3.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-F2F24H5K.mjs";import{b as u,c as f}from"./chunk-7NAUKINH.mjs";import"./chunk-STZBV4BT.mjs";import"./chunk-SFYQ7R7E.mjs";import{a as g}from"./chunk-AVM6ROHZ.mjs";import"./chunk-OLJOMFH6.mjs";import{a as m}from"./chunk-E4M3T3EB.mjs";import"./chunk-PZS4FPBV.mjs";import"./chunk-FWC5MIAS.mjs";import"./chunk-ZHJZE6KQ.mjs";import"./chunk-RGH6QNTP.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as n,c as p}from"./chunk-LDHZQHL4.mjs";import"./chunk-7XDNGLXY.mjs";import{resolve as A}from"node:path";var R=`Usage: enginectl verify JOURNAL [options]

Reads back the target of each call a run sent and never saw answered ("in doubt") and says
whether the server applied it: applied, not-applied or cannot-tell, with the evidence. It sends
only GET requests, to the servers of the pipeline that wrote the journal (their URLs and
credentials from the environment, as for run), and changes nothing: resume with
run --resume JOURNAL --in-doubt verify (or verify-and-retry) to act on it.

Read back: licensing/add and licensing/remove (the licenses against those recorded just before
the call), classes/create, update and delete (the entity), update/system (the Engine versions
of the target database; monitoring lags up to 2 minutes). update/vfs, replication/sync and
transaction-log/clear cannot be verified through the API: check on the server.

Options:
  --pipeline FILE    the pipeline that wrote the journal (default: the file its run named)
  --var NAME=VALUE   a var the servers read, as given to run (repeatable)
  -h, --help         show this help

Exit codes: 0 nothing is in doubt or every in-doubt call was settled (applied or not applied),
1 at least one cannot be told, 2 invalid input.`;async function N(y,e){let{values:o,positionals:s}=m("verify",y,{pipeline:{type:"string"},var:{type:"string",multiple:!0}});if(o.help)return e.stdout(`${R}
`),n.ok;if(s.length!==1)throw new p("BAD_ARGUMENTS",`verify: expected one JOURNAL, got ${s.length}`,{hint:"enginectl verify run.journal.jsonl"});let l=s[0],r=await g("verify",l,e),w=r.runs[0],d=o.pipeline??r.runs.at(-1).file,{pipeline:b,sources:$}=await u(A(e.cwd,d),e,{vars:f(o.var)});c(w.salt,$[0].text)!==r.runs.at(-1).files[0]?.hash&&e.stderr(`enginectl: warning: ${d} changed since the journal's run: its servers are read as they are now
`);let E=new h,a=await v(r,{pipeline:b,env:e.env,masker:E,signal:e.signal,now:Date.now});if(a.length===0)return e.stdout(`nothing is in doubt in ${l}
`),n.ok;for(let t of a)e.stdout(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}
`);let i=t=>a.filter(k=>k.verdict===t).length;return e.stdout(`${a.length} in doubt: ${i("applied")} applied, ${i("not-applied")} not applied, ${i("cannot-tell")} cannot tell
`),i("cannot-tell")>0?n.failed:n.ok}export{R as VERIFY_HELP,N as verifyCommand};
