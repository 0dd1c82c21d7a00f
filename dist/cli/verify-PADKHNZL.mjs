import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as w}from"./chunk-QIB7APSS.mjs";import{e as c,f}from"./chunk-LCX4ADRG.mjs";import"./chunk-IPSQXXBL.mjs";import"./chunk-WVHYKBGE.mjs";import{g as m,i as v,j as g}from"./chunk-XKIA42P6.mjs";import"./chunk-CMZPDPRM.mjs";import"./chunk-7OSQYXWN.mjs";import{b as u}from"./chunk-UMRMJOOY.mjs";import"./chunk-ODKN3ZZ4.mjs";import"./chunk-2ZGDXXYN.mjs";import"./chunk-UTSD667Q.mjs";import{a as y}from"./chunk-LLVJRYZ5.mjs";import{a as o}from"./chunk-G6IUI72E.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-SK7TNESB.mjs";import"./chunk-REJWNMPZ.mjs";import"./chunk-LT3DIPJL.mjs";import"./chunk-V6EYX3DU.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-FVOHT4EB.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-MOXLDQG7.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-5AIDX52M.mjs";import{a as n}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as L}from"node:path";var R=`Usage: enginectl verify JOURNAL [options]

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
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           verify the run of that id in the run store
  -h, --help         show this help

Exit codes: 0 nothing is in doubt or every in-doubt call was settled (applied or not applied),
1 at least one cannot be told, 2 invalid input.`;async function F(b,e){let{values:r,positionals:E}=y("verify",b,{pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}});if(r.help)return e.stdout(`${R}
`),n.ok;let{state:a,name:$}=await w("verify",E,r,e),d=a.runs[0],p=r.pipeline??a.runs.at(-1).file,{pipeline:h,sources:k}=await c(L(e.cwd,p),e,{vars:f(r.var)}),l=new u;v(h,e.env,l),g(k.slice(0,1),d.salt,l,d.v)[0].hash!==a.runs.at(-1).files[0]?.hash&&e.stderr(`enginectl: warning: ${o(p)} changed since the journal's run: its servers are read as they are now
`);let i=await m(a,{pipeline:h,env:e.env,masker:l,signal:e.signal,now:Date.now});if(i.length===0)return e.stdout(`nothing is in doubt in ${o($)}
`),n.ok;for(let t of i)e.stdout(o(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let s=t=>i.filter(I=>I.verdict===t).length;return e.stdout(`${i.length} in doubt: ${s("applied")} applied, ${s("not-applied")} not applied, ${s("cannot-tell")} cannot tell
`),s("cannot-tell")>0?n.failed:n.ok}export{R as VERIFY_HELP,F as verifyCommand};
