import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as ne}from"./chunk-QKU2HE7P.mjs";import{c as Z}from"./chunk-BYWC5NC4.mjs";import"./chunk-X4OGZJI2.mjs";import{a as te}from"./chunk-OVQMTV62.mjs";import{a as V}from"./chunk-4GYBWZKW.mjs";import{c as H,d as B,g as Y,h as K,i as Q,k as X}from"./chunk-E77HH3JH.mjs";import"./chunk-E66VPIPR.mjs";import"./chunk-3NOMO7NO.mjs";import{b as D}from"./chunk-WRN2XRWR.mjs";import"./chunk-ETD2CHQV.mjs";import{b as q,d as z}from"./chunk-LQQCRTHK.mjs";import"./chunk-5M4OUTR3.mjs";import{v as I,y as U}from"./chunk-FLDRZHGE.mjs";import{b as J}from"./chunk-ZNXPPGPE.mjs";import{m as G,n as _}from"./chunk-X2SQMOCO.mjs";import"./chunk-G6MTV7GE.mjs";import"./chunk-545GDYOU.mjs";import{a as ee}from"./chunk-DY4SYJHE.mjs";import{f as C}from"./chunk-UOYZUUOK.mjs";import"./chunk-MABUYCVR.mjs";import{b as S}from"./chunk-7EDNEW5B.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-DDLHSVKF.mjs";import{f as b,i as P,k as x,l as T,m as W,n as F}from"./chunk-HXLWJUD2.mjs";import"./chunk-6OF2ZQOX.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-7XUYJP75.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-UWXU5CI3.mjs";import"./chunk-Q3WUFOEX.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as g}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as ie}from"node:path";import{randomBytes as he}from"node:crypto";var j=class extends S{learnt=[];add(e,n){typeof e=="string"&&this.learnt.push(e),super.add(e,n)}},ue=8;function re(i){let e=new S;for(let n of i)e.add(n);return e}function se(i,e,n,s,o={}){let l=n.runs[0],d=n.runs.at(-1).files[0]?.hash,c=r=>K(e.slice(0,1),l.salt,r,l.v)[0].hash;if(c(C(i,s))===d)return{same:!0};let v=Q({pipeline:i,sources:e,vars:o,env:s},I(n.runs.at(-1)));if(v&&c(v)===d)return{same:!0};let f=i.secrets.filter(r=>s[r]===void 0),y=he(16).toString("hex"),L={...s,...Object.fromEntries(f.map(r=>[r,`unset-${r}-${y}`]))},w=new j,p=!1;try{J({...i,reach:void 0},L,w,"reached")}catch{p=!0}let k=e[0]?.text??"",a=[...new Set(w.learnt)].filter(r=>re([r]).mask(k)!==k),h=a.length<=ue;return(h?Array.from({length:2**a.length},(r,m)=>a.filter((O,R)=>2**a.length-1-m>>R&1)):[a,[]]).some(r=>c(re(r))===d)?{same:!0}:f.length===0&&!p&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:f,unlearnt:p||!h}}var fe=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,pe={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Ge(i,e){let{values:n,positionals:s}=ee("verify",i,pe);if(n.help)return e.stdout(`${fe}
`),g.ok;if(n.run===void 0&&s.length===1){let{warning:t}=D(ie(e.cwd,s[0]),"verify");t&&e.stderr(`enginectl: warning: ${u(t)}
`)}let{state:o,name:l}=await ne("verify",s,n,e,async(t,$,le)=>{let de=(e.clock??U()).now();await Z(t,$,le,"verify",de,"Nothing was verified",{confirmed:!0,warn:ce=>e.stderr(`enginectl: warning: ${u(ce)}
`)})}),d=H(o);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),g.ok;let c=n.pipeline??o.runs.at(-1).file,v=B(d),f=_(n.var),{pipeline:y,sources:L}=await G(ie(e.cwd,c),e,{vars:f,readBack:v,checkEnv:v.size>0}),w=V(te(e),t=>e.stdout(`${t}
`));X(y,e.env,w);let p=se(y,L,o,e.env,f);p.same||e.stderr(`enginectl: warning: ${u(me(c,p))}
`);let{now:k}=e.clock??U(),a=await Y(o,{pipeline:y,env:e.env,masker:w,signal:e.signal,now:k});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),g.ok;for(let t of a)e.stdout(u(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let h=t=>a.filter($=>$.verdict===t).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return g.ok;let E=n.run===void 0?"ID":b(n.run),r=o.parked&&q(o.parked,k()),m=I(o.runs.at(-1)),O=a.filter(t=>t.verdict==="cannot-tell").map(t=>t.matrix),R=[...new Map(O.filter(t=>!P(t,m)).map(t=>[JSON.stringify(t),t])).values()],A=x(m),M=`enginectl run ${b(c)} --store URL --continue ${E}${A} --in-doubt skip or retry`,oe=`${n.run===void 0?`--resume ${b(l)}`:`--store URL --resume ${E}`}`,N=(t,$="")=>`then: check on the server, then resume deciding: enginectl run ${b(c)} ${oe}${t} --in-doubt skip (applied) or retry (sent again)${$}`,ae=r&&z(r)?["then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)"]:r?r.park.for==="window"?[`then: check on the server, then go on deciding: ${M}`]:[`then: check on the server, then decide: enginectl decide --store URL --run ${E} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${M}`]:[...R.length<O.length?[N(A)]:[],...R.map(t=>N(`${x(T(m,t))} --force`,`; it selects the call in doubt at ${F(t)}, outside the journal's last run (${W(m)??"every instance"}), and runs what else it selects that is not done (enginectl plan shows it)`))];for(let t of ae)e.stdout(`${u(t)}
`);return g.failed}function me(i,e){let n="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${n}`;let{missing:s}=e,o=s.map(d=>`secrets.${d}`).join(", "),l=s.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${s.length>1?"s":""} of ${o} masked, which verify is not given (its reads do not need ${s.length>1?"them":"it"}): give ${s.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${l}; ${n}`}export{pe as OPTIONS,fe as VERIFY_HELP,Ge as verifyCommand};
