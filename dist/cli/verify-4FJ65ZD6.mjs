import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as R}from"./chunk-JVGLAFV5.mjs";import{e as y,f as b}from"./chunk-WBG2FU5P.mjs";import"./chunk-HB2E3DM4.mjs";import"./chunk-XP36Q324.mjs";import"./chunk-SFBJ47HQ.mjs";import{c as g,f as w,g as k,i as E,k as $,l as I}from"./chunk-ILOMHPKO.mjs";import"./chunk-QPHWK2IS.mjs";import"./chunk-Z7H6I6D2.mjs";import{b as m}from"./chunk-UMRMJOOY.mjs";import"./chunk-ODKN3ZZ4.mjs";import"./chunk-XJSAWOAF.mjs";import"./chunk-IBHXPTHW.mjs";import{a as L}from"./chunk-DDBPXRCH.mjs";import{a as r}from"./chunk-G6IUI72E.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-SK7TNESB.mjs";import"./chunk-REJWNMPZ.mjs";import"./chunk-KQJFZZ32.mjs";import"./chunk-TYBMTELL.mjs";import"./chunk-7QNP6ON6.mjs";import"./chunk-FVOHT4EB.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-OO5ABR4A.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-5AIDX52M.mjs";import{a as n}from"./chunk-JI3UUNSM.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as O}from"node:path";var C=`Usage: enginectl verify JOURNAL [options]

Reads back the target of each call a run sent and never saw answered ("in doubt") and says
whether the server applied it: applied, not-applied or cannot-tell, with the evidence. It sends
only GET requests, to the servers of the pipeline that wrote the journal (the URLs and
credentials of those it reads from the environment, as for run; no target token), and changes
nothing: resume with run --resume JOURNAL --in-doubt verify (or verify-and-retry) to act on it.
With nothing in doubt it says so, asking the environment for nothing. A journal a run still
writes (its lock held by a live process) is refused: the calls that run has in flight are not in
doubt; verify once it has ended.

Read back: licensing/add and licensing/remove (the licenses against those recorded just before
the call), classes/create, update and delete (the entity), update/system (the Engine versions
of the target database; monitoring lags up to 2 minutes). update/vfs, replication/sync and
transaction-log/clear cannot be verified through the API: check on the server.

Options:
  --pipeline FILE    the pipeline that wrote the journal (default: the file its run named)
  --var NAME=VALUE   a var the servers read, as given to run (repeatable)
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           verify the run of that id in the run store
  -h, --help         show this help

Exit codes: 0 nothing is in doubt or every in-doubt call was settled (applied or not applied),
1 at least one cannot be told, 2 invalid input or the journal in use by a live run.`,U={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function W(A,e){let{values:i,positionals:l}=L("verify",A,U);if(i.help)return e.stdout(`${C}
`),n.ok;if(i.run===void 0&&l.length===1){let{warning:t}=g(O(e.cwd,l[0]),"verify");t&&e.stderr(`enginectl: warning: ${r(t)}
`)}let{state:s,name:h}=await R("verify",l,i,e),u=w(s);if(u.length===0)return e.stdout(`nothing is in doubt in ${r(h)}
`),n.ok;let p=s.runs[0],c=i.pipeline??s.runs.at(-1).file,f=k(u),{pipeline:v,sources:N}=await y(O(e.cwd,c),e,{vars:b(i.var),readBack:f,checkEnv:f.size>0}),d=new m;$(v,e.env,d),I(N.slice(0,1),p.salt,d,p.v)[0].hash!==s.runs.at(-1).files[0]?.hash&&e.stderr(`enginectl: warning: ${r(c)} changed since the journal's run: its servers are read as they are now
`);let o=await E(s,{pipeline:v,env:e.env,masker:d,signal:e.signal,now:Date.now});if(o.length===0)return e.stdout(`nothing is in doubt in ${r(h)}
`),n.ok;for(let t of o)e.stdout(r(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let a=t=>o.filter(j=>j.verdict===t).length;return e.stdout(`${o.length} in doubt: ${a("applied")} applied, ${a("not-applied")} not applied, ${a("cannot-tell")} cannot tell
`),a("cannot-tell")>0?n.failed:n.ok}export{U as OPTIONS,C as VERIFY_HELP,W as verifyCommand};
