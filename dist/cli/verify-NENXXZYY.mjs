import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as _}from"./chunk-FNS64MBL.mjs";import{c as J}from"./chunk-DIRTAYDC.mjs";import"./chunk-XLJY4QG2.mjs";import{a as $}from"./chunk-4DVKTRNB.mjs";import"./chunk-3OILOOQE.mjs";import{c as N,d as V,g as T,h as C,i as F,k as W}from"./chunk-TRK72MR5.mjs";import"./chunk-FVHVYBDC.mjs";import"./chunk-5GNPJKF5.mjs";import{b as A}from"./chunk-WRN2XRWR.mjs";import"./chunk-KOECK2SE.mjs";import{d as P}from"./chunk-5ZBE7PHE.mjs";import{j as U}from"./chunk-333MYHUK.mjs";import{b as x,f as R}from"./chunk-ZYRVZDMQ.mjs";import{k as j,l as M}from"./chunk-ILWPSV53.mjs";import"./chunk-7BWY3FPM.mjs";import"./chunk-5ZNL27RU.mjs";import{a as G}from"./chunk-DY4SYJHE.mjs";import{f as S}from"./chunk-FAUFJ667.mjs";import"./chunk-GSKTISK6.mjs";import{b as w}from"./chunk-J3JAVBK2.mjs";import{e as h}from"./chunk-W3YLBX4Z.mjs";import"./chunk-NQHTXKQV.mjs";import"./chunk-IQULTVJT.mjs";import"./chunk-4JWCD5JD.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as f}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as B}from"node:path";import{randomBytes as z}from"node:crypto";var I=class extends w{learnt=[];add(e,n){typeof e=="string"&&this.learnt.push(e),super.add(e,n)}},Y=8;function D(s){let e=new w;for(let n of s)e.add(n);return e}function H(s,e,n,r,i={}){let a=n.runs[0],l=n.runs.at(-1).files[0]?.hash,d=t=>C(e.slice(0,1),a.salt,t,a.v)[0].hash;if(d(S(s,r))===l)return{same:!0};let m=F({pipeline:s,sources:e,vars:i,env:r},U(n.runs.at(-1)));if(m&&d(m)===l)return{same:!0};let u=s.secrets.filter(t=>r[t]===void 0),g=z(16).toString("hex"),b={...r,...Object.fromEntries(u.map(t=>[t,`unset-${t}-${g}`]))},v=new I,p=!1;try{x({...s,reach:void 0},b,v,"reached")}catch{p=!0}let k=e[0]?.text??"",o=[...new Set(v.learnt)].filter(t=>D([t]).mask(k)!==k),c=o.length<=Y;return(c?Array.from({length:2**o.length},(t,y)=>o.filter((O,E)=>2**o.length-1-y>>E&1)):[o,[]]).some(t=>d(D(t))===l)?{same:!0}:u.length===0&&!p&&c?{same:!1,changed:!0}:{same:!1,changed:!1,missing:u,unlearnt:p||!c}}var K=`Usage: enginectl verify JOURNAL [options]

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
1 at least one cannot be told, 2 invalid input or the journal in use by a live run,
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,Q={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Ee(s,e){let{values:n,positionals:r}=G("verify",s,Q);if(n.help)return e.stdout(`${K}
`),f.ok;if(n.run===void 0&&r.length===1){let{warning:t}=A(B(e.cwd,r[0]),"verify");t&&e.stderr(`enginectl: warning: ${h(t)}
`)}let{state:i,name:a}=await _("verify",r,n,e,async(t,y,O)=>{let E=(e.clock??R()).now();await J(t,y,O,"verify",E,"Nothing was verified",{confirmed:!0,warn:q=>e.stderr(`enginectl: warning: ${h(q)}
`)})}),l=N(i);if(l.length===0)return e.stdout(`nothing is in doubt in ${h(a)}
`),f.ok;let d=n.pipeline??i.runs.at(-1).file,m=V(l),u=M(n.var),{pipeline:g,sources:b}=await j(B(e.cwd,d),e,{vars:u,readBack:m,checkEnv:m.size>0}),v=new w;W(g,e.env,v);let p=H(g,b,i,e.env,u);p.same||e.stderr(`enginectl: warning: ${h(X(d,p))}
`);let{now:k}=e.clock??R(),o=await T(i,{pipeline:g,env:e.env,masker:v,signal:e.signal,now:k});if(o.length===0)return e.stdout(`nothing is in doubt in ${h(a)}
`),f.ok;for(let t of o)e.stdout(h(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let c=t=>o.filter(y=>y.verdict===t).length;if(e.stdout(`${o.length} in doubt: ${c("applied")} applied, ${c("not-applied")} not applied, ${c("cannot-tell")} cannot tell
`),c("cannot-tell")===0)return f.ok;let L=n.run===void 0?`--resume ${$(a)}`:`--store URL --resume ${n.run}`;return e.stdout(h(i.parked&&!P(i.parked)?`then: check on the server, then decide: enginectl decide --store URL --run ${n.run} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: enginectl run ${$(d)} --store URL --continue ${n.run} --in-doubt skip or retry`:`then: check on the server, then resume deciding: enginectl run ${$(d)} ${L} --in-doubt skip (applied) or retry (sent again)`)+`
`),f.failed}function X(s,e){let n="its servers are read as they are now";if(e.changed)return`${s} changed since the journal's run: ${n}`;let{missing:r}=e,i=r.map(l=>`secrets.${l}`).join(", "),a=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${i} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${s} changed since the journal's run: ${a}; ${n}`}export{Q as OPTIONS,K as VERIFY_HELP,Ee as verifyCommand};
