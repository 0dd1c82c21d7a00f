import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as v}from"./chunk-J7JNO3DD.mjs";import"./chunk-IWJJQQYE.mjs";import{b as c}from"./chunk-2WDUQLDQ.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-F2F24H5K.mjs";import{b as u,f,g as m}from"./chunk-SN56QLKL.mjs";import"./chunk-CGYPE3V7.mjs";import"./chunk-COJR2P54.mjs";import{a as y}from"./chunk-SV6HQHTP.mjs";import"./chunk-S43TVTXX.mjs";import{a as g}from"./chunk-QXZQ23ZW.mjs";import{a as o}from"./chunk-DJA6MMAV.mjs";import"./chunk-OGBWVGC6.mjs";import"./chunk-OJSM6CYL.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YYATGJ5M.mjs";import{a as n,c as h}from"./chunk-AI5N4DLN.mjs";import"./chunk-7XDNGLXY.mjs";import{resolve as R}from"node:path";var U=`Usage: enginectl verify JOURNAL [options]

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
1 at least one cannot be told, 2 invalid input.`;async function P(w,e){let{values:s,positionals:l}=g("verify",w,{pipeline:{type:"string"},var:{type:"string",multiple:!0}});if(s.help)return e.stdout(`${U}
`),n.ok;if(l.length!==1)throw new h("BAD_ARGUMENTS",`verify: expected one JOURNAL, got ${l.length}`,{hint:"enginectl verify run.journal.jsonl"});let d=l[0],r=await y("verify",d,e),b=r.runs[0],p=s.pipeline??r.runs.at(-1).file,{pipeline:$,sources:E}=await f(R(e.cwd,p),e,{vars:m(s.var)});u(b.salt,E[0].text)!==r.runs.at(-1).files[0]?.hash&&e.stderr(`enginectl: warning: ${o(p)} changed since the journal's run: its servers are read as they are now
`);let k=new c,i=await v(r,{pipeline:$,env:e.env,masker:k,signal:e.signal,now:Date.now});if(i.length===0)return e.stdout(`nothing is in doubt in ${o(d)}
`),n.ok;for(let t of i)e.stdout(o(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let a=t=>i.filter(A=>A.verdict===t).length;return e.stdout(`${i.length} in doubt: ${a("applied")} applied, ${a("not-applied")} not applied, ${a("cannot-tell")} cannot tell
`),a("cannot-tell")>0?n.failed:n.ok}export{U as VERIFY_HELP,P as verifyCommand};
