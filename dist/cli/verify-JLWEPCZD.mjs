import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as ee}from"./chunk-A7PTBOPM.mjs";import{c as X}from"./chunk-DFZ2N624.mjs";import"./chunk-NYZWVP6M.mjs";import"./chunk-PTS3BEV4.mjs";import{c as _,d as H,g as z,h as Y,i as K,k as Q}from"./chunk-FHYKTIA3.mjs";import"./chunk-YNNIQKA6.mjs";import"./chunk-E5H5WF5W.mjs";import{b as J}from"./chunk-WRN2XRWR.mjs";import"./chunk-O24G6PQ2.mjs";import{b as B,d as q}from"./chunk-ZISKYGUF.mjs";import"./chunk-ZDVMG6M3.mjs";import{e as F,p as L,s as U}from"./chunk-3SRYJXPB.mjs";import{l as D,m as G}from"./chunk-TKSCFCFP.mjs";import"./chunk-SOGTZVS6.mjs";import"./chunk-KZHP2SCZ.mjs";import{a as Z}from"./chunk-DY4SYJHE.mjs";import{f as V}from"./chunk-B3SUDAHC.mjs";import"./chunk-IIMVO2C7.mjs";import{b}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-DDLHSVKF.mjs";import{b as E,e as C,g as x,h as P,i as T,j as W}from"./chunk-VZBMWS65.mjs";import"./chunk-NBENTZOW.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-K5ISAZJV.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-UWXU5CI3.mjs";import"./chunk-Q3WUFOEX.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as g}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as re}from"node:path";import{randomBytes as de}from"node:crypto";var j=class extends b{learnt=[];add(e,n){typeof e=="string"&&this.learnt.push(e),super.add(e,n)}},ce=8;function te(i){let e=new b;for(let n of i)e.add(n);return e}function ne(i,e,n,s,o={}){let l=n.runs[0],d=n.runs.at(-1).files[0]?.hash,c=r=>Y(e.slice(0,1),l.salt,r,l.v)[0].hash;if(c(V(i,s))===d)return{same:!0};let v=K({pipeline:i,sources:e,vars:o,env:s},L(n.runs.at(-1)));if(v&&c(v)===d)return{same:!0};let f=i.secrets.filter(r=>s[r]===void 0),y=de(16).toString("hex"),O={...s,...Object.fromEntries(f.map(r=>[r,`unset-${r}-${y}`]))},w=new j,p=!1;try{F({...i,reach:void 0},O,w,"reached")}catch{p=!0}let k=e[0]?.text??"",a=[...new Set(w.learnt)].filter(r=>te([r]).mask(k)!==k),h=a.length<=ce;return(h?Array.from({length:2**a.length},(r,m)=>a.filter((S,I)=>2**a.length-1-m>>I&1)):[a,[]]).some(r=>c(te(r))===d)?{same:!0}:f.length===0&&!p&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:f,unlearnt:p||!h}}var he=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,ue={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Fe(i,e){let{values:n,positionals:s}=Z("verify",i,ue);if(n.help)return e.stdout(`${he}
`),g.ok;if(n.run===void 0&&s.length===1){let{warning:t}=J(re(e.cwd,s[0]),"verify");t&&e.stderr(`enginectl: warning: ${u(t)}
`)}let{state:o,name:l}=await ee("verify",s,n,e,async(t,$,oe)=>{let ae=(e.clock??U()).now();await X(t,$,oe,"verify",ae,"Nothing was verified",{confirmed:!0,warn:le=>e.stderr(`enginectl: warning: ${u(le)}
`)})}),d=_(o);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),g.ok;let c=n.pipeline??o.runs.at(-1).file,v=H(d),f=G(n.var),{pipeline:y,sources:O}=await D(re(e.cwd,c),e,{vars:f,readBack:v,checkEnv:v.size>0}),w=new b;Q(y,e.env,w);let p=ne(y,O,o,e.env,f);p.same||e.stderr(`enginectl: warning: ${u(fe(c,p))}
`);let{now:k}=e.clock??U(),a=await z(o,{pipeline:y,env:e.env,masker:w,signal:e.signal,now:k});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),g.ok;for(let t of a)e.stdout(u(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let h=t=>a.filter($=>$.verdict===t).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return g.ok;let R=n.run===void 0?"ID":E(n.run),r=o.parked&&B(o.parked,k()),m=L(o.runs.at(-1)),S=a.filter(t=>t.verdict==="cannot-tell").map(t=>t.matrix),I=[...new Map(S.filter(t=>!C(t,m)).map(t=>[JSON.stringify(t),t])).values()],A=x(m),M=`enginectl run ${E(c)} --store URL --continue ${R}${A} --in-doubt skip or retry`,se=`${n.run===void 0?`--resume ${E(l)}`:`--store URL --resume ${R}`}`,N=(t,$="")=>`then: check on the server, then resume deciding: enginectl run ${E(c)} ${se}${t} --in-doubt skip (applied) or retry (sent again)${$}`,ie=r&&q(r)?["then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)"]:r?r.park.for==="window"?[`then: check on the server, then go on deciding: ${M}`]:[`then: check on the server, then decide: enginectl decide --store URL --run ${R} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${M}`]:[...I.length<S.length?[N(A)]:[],...I.map(t=>N(`${x(P(m,t))} --force`,`; it selects the call in doubt at ${W(t)}, outside the journal's last run (${T(m)??"every instance"}), and runs what else it selects that is not done (enginectl plan shows it)`))];for(let t of ie)e.stdout(`${u(t)}
`);return g.failed}function fe(i,e){let n="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${n}`;let{missing:s}=e,o=s.map(d=>`secrets.${d}`).join(", "),l=s.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${s.length>1?"s":""} of ${o} masked, which verify is not given (its reads do not need ${s.length>1?"them":"it"}): give ${s.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${l}; ${n}`}export{ue as OPTIONS,he as VERIFY_HELP,Fe as verifyCommand};
