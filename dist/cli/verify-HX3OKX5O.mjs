import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as W}from"./chunk-FNS64MBL.mjs";import{c as V}from"./chunk-DIRTAYDC.mjs";import"./chunk-XLJY4QG2.mjs";import"./chunk-3OILOOQE.mjs";import{c as N,d as P,g as T,h as C,i as F,k as U}from"./chunk-7EZZKBKG.mjs";import"./chunk-FVHVYBDC.mjs";import"./chunk-5GNPJKF5.mjs";import{b as L}from"./chunk-WRN2XRWR.mjs";import"./chunk-KOECK2SE.mjs";import"./chunk-5ZBE7PHE.mjs";import{j}from"./chunk-333MYHUK.mjs";import{b as O,f as R}from"./chunk-ZYRVZDMQ.mjs";import{k as A,l as M}from"./chunk-ILWPSV53.mjs";import"./chunk-7BWY3FPM.mjs";import"./chunk-5ZNL27RU.mjs";import{a as J}from"./chunk-DY4SYJHE.mjs";import{f as x}from"./chunk-FAUFJ667.mjs";import"./chunk-GSKTISK6.mjs";import{b as w}from"./chunk-J3JAVBK2.mjs";import{e as h}from"./chunk-W3YLBX4Z.mjs";import"./chunk-NQHTXKQV.mjs";import"./chunk-IQULTVJT.mjs";import"./chunk-4JWCD5JD.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as D}from"node:path";import{randomBytes as H}from"node:crypto";var I=class extends w{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},B=8;function G(i){let e=new w;for(let t of i)e.add(t);return e}function _(i,e,t,r,a={}){let c=t.runs[0],l=t.runs.at(-1).files[0]?.hash,u=n=>C(e.slice(0,1),c.salt,n,c.v)[0].hash;if(u(x(i,r))===l)return{same:!0};let g=F({pipeline:i,sources:e,vars:a,env:r},j(t.runs.at(-1)));if(g&&u(g)===l)return{same:!0};let f=i.secrets.filter(n=>r[n]===void 0),v=H(16).toString("hex"),$={...r,...Object.fromEntries(f.map(n=>[n,`unset-${n}-${v}`]))},y=new I,p=!1;try{O({...i,reach:void 0},$,y,"reached")}catch{p=!0}let k=e[0]?.text??"",o=[...new Set(y.learnt)].filter(n=>G([n]).mask(k)!==k),d=o.length<=B;return(d?Array.from({length:2**o.length},(n,b)=>o.filter((S,E)=>2**o.length-1-b>>E&1)):[o,[]]).some(n=>u(G(n))===l)?{same:!0}:f.length===0&&!p&&d?{same:!1,changed:!0}:{same:!1,changed:!1,missing:f,unlearnt:p||!d}}var q=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,z={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function ye(i,e){let{values:t,positionals:r}=J("verify",i,z);if(t.help)return e.stdout(`${q}
`),m.ok;if(t.run===void 0&&r.length===1){let{warning:s}=L(D(e.cwd,r[0]),"verify");s&&e.stderr(`enginectl: warning: ${h(s)}
`)}let{state:a,name:c}=await W("verify",r,t,e,async(s,n,b)=>{let S=(e.clock??R()).now();await V(s,n,b,"verify",S,"Nothing was verified",{confirmed:!0,warn:E=>e.stderr(`enginectl: warning: ${h(E)}
`)})}),l=N(a);if(l.length===0)return e.stdout(`nothing is in doubt in ${h(c)}
`),m.ok;let u=t.pipeline??a.runs.at(-1).file,g=P(l),f=M(t.var),{pipeline:v,sources:$}=await A(D(e.cwd,u),e,{vars:f,readBack:g,checkEnv:g.size>0}),y=new w;U(v,e.env,y);let p=_(v,$,a,e.env,f);p.same||e.stderr(`enginectl: warning: ${h(Y(u,p))}
`);let{now:k}=e.clock??R(),o=await T(a,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:k});if(o.length===0)return e.stdout(`nothing is in doubt in ${h(c)}
`),m.ok;for(let s of o)e.stdout(h(`${s.verdict.padEnd(12)} "${s.name}" (${s.doubt.method} ${s.doubt.path}): ${s.evidence}`)+`
`);let d=s=>o.filter(n=>n.verdict===s).length;return e.stdout(`${o.length} in doubt: ${d("applied")} applied, ${d("not-applied")} not applied, ${d("cannot-tell")} cannot tell
`),d("cannot-tell")>0?m.failed:m.ok}function Y(i,e){let t="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${t}`;let{missing:r}=e,a=r.map(l=>`secrets.${l}`).join(", "),c=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${a} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${c}; ${t}`}export{z as OPTIONS,q as VERIFY_HELP,ye as verifyCommand};
