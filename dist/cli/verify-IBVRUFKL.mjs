import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as P}from"./chunk-WBVAXXLJ.mjs";import{b as M}from"./chunk-QJYQ3IVB.mjs";import"./chunk-2GJVVLUO.mjs";import{c as R}from"./chunk-J7W3PZ7V.mjs";import"./chunk-TIEHKLZQ.mjs";import{c as x,f as S,g as A,i as L,j as C,l as F}from"./chunk-TCK36ZAH.mjs";import"./chunk-UMACTPYB.mjs";import"./chunk-KT7S2Q7T.mjs";import"./chunk-TK33ZK6I.mjs";import{d as E,f as j}from"./chunk-XQTTTUNZ.mjs";import{b as v}from"./chunk-DKFZP6P3.mjs";import{j as I,k as O}from"./chunk-WJFLBLJV.mjs";import"./chunk-WOLPMX55.mjs";import"./chunk-VDV5YBTC.mjs";import"./chunk-AK7T77PR.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-YJJUA57P.mjs";import"./chunk-WHKVFSKO.mjs";import"./chunk-YHQYLPWT.mjs";import{a as N}from"./chunk-QSJG675I.mjs";import{a as c}from"./chunk-EAYVXTMU.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-3EIHYVGH.mjs";import"./chunk-DECUCENR.mjs";import"./chunk-T3QUBQYD.mjs";import"./chunk-D4Y5VCNB.mjs";import"./chunk-HELPYNUO.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XU4XB32F.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-TR2GVION.mjs";import{a as f}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as T}from"node:path";import{randomBytes as W}from"node:crypto";var b=class extends v{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},D=8;function V(i){let e=new v;for(let t of i)e.add(t);return e}function J(i,e,t,r){let a=t.runs[0],d=t.runs.at(-1).files[0]?.hash,h=n=>C(e.slice(0,1),a.salt,n,a.v)[0].hash;if(h(j(i,r))===d)return{same:!0};let u=i.secrets.filter(n=>r[n]===void 0),y=W(16).toString("hex"),m={...r,...Object.fromEntries(u.map(n=>[n,`unset-${n}-${y}`]))},w=new b,p=!1;try{E({...i,reach:void 0},m,w)}catch{p=!0}let g=e[0]?.text??"",o=[...new Set(w.learnt)].filter(n=>V([n]).mask(g)!==g),l=o.length<=D;return(l?Array.from({length:2**o.length},(n,k)=>o.filter(($,U)=>2**o.length-1-k>>U&1)):[o,[]]).some(n=>h(V(n))===d)?{same:!0}:u.length===0&&!p&&l?{same:!1,changed:!0}:{same:!1,changed:!1,missing:u,unlearnt:p||!l}}var _=`Usage: enginectl verify JOURNAL [options]

Reads back the target of each call a run sent and never saw answered ("in doubt") and says
whether the server applied it: applied, not-applied or cannot-tell, with the evidence. It sends
only GET requests, to the servers of the pipeline that wrote the journal (the URLs and
credentials of those it reads from the environment, as for run; no target token), and changes
nothing: resume with run --resume JOURNAL --in-doubt verify (or verify-and-retry) to act on it.
With nothing in doubt it says so, asking the environment for nothing. A journal a run still
writes (its lock held by a live process; in a run store, its runner's lease renewed: the run's
fleet lease, or the worker lease of the sharded run whose site it is) is refused: the calls that
run has in flight are not in doubt; verify once it has ended. A stale lock or a lapsed lease is
said, and does not stop it.

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
1 at least one cannot be told, 2 invalid input or the journal in use by a live run.`,H={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function ue(i,e){let{values:t,positionals:r}=N("verify",i,H);if(t.help)return e.stdout(`${_}
`),f.ok;if(t.run===void 0&&r.length===1){let{warning:s}=x(T(e.cwd,r[0]),"verify");s&&e.stderr(`enginectl: warning: ${c(s)}
`)}let{state:a,name:d}=await P("verify",r,t,e,async(s,n,k)=>{let{warning:$}=await M(s,n,k,"verify",(e.clock??R()).now());$&&e.stderr(`enginectl: warning: ${c($)}
`)}),h=S(a);if(h.length===0)return e.stdout(`nothing is in doubt in ${c(d)}
`),f.ok;let u=t.pipeline??a.runs.at(-1).file,y=A(h),{pipeline:m,sources:w}=await I(T(e.cwd,u),e,{vars:O(t.var),readBack:y,checkEnv:y.size>0}),p=new v;F(m,e.env,p);let g=J(m,w,a,e.env);g.same||e.stderr(`enginectl: warning: ${c(B(u,g))}
`);let o=await L(a,{pipeline:m,env:e.env,masker:p,signal:e.signal,now:Date.now});if(o.length===0)return e.stdout(`nothing is in doubt in ${c(d)}
`),f.ok;for(let s of o)e.stdout(c(`${s.verdict.padEnd(12)} "${s.name}" (${s.doubt.method} ${s.doubt.path}): ${s.evidence}`)+`
`);let l=s=>o.filter(n=>n.verdict===s).length;return e.stdout(`${o.length} in doubt: ${l("applied")} applied, ${l("not-applied")} not applied, ${l("cannot-tell")} cannot tell
`),l("cannot-tell")>0?f.failed:f.ok}function B(i,e){let t="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${t}`;let{missing:r}=e,a=r.map(h=>`secrets.${h}`).join(", "),d=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${a} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${d}; ${t}`}export{H as OPTIONS,_ as VERIFY_HELP,ue as verifyCommand};
