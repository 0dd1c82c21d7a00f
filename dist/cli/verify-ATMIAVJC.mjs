import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as K}from"./chunk-KSEGPKYD.mjs";import{c as z}from"./chunk-HTPLMGBQ.mjs";import"./chunk-ZMDVK6WQ.mjs";import"./chunk-QR55TSSJ.mjs";import{c as F,d as J,g as _,h as H,i as B,k as q}from"./chunk-SIGSFDHD.mjs";import"./chunk-32OQQ44X.mjs";import"./chunk-E5H5WF5W.mjs";import{b as T}from"./chunk-WRN2XRWR.mjs";import"./chunk-O24G6PQ2.mjs";import{b as D,d as G}from"./chunk-UPEO6Y3C.mjs";import"./chunk-ISM3RTMJ.mjs";import{b as P,m as I,p as x}from"./chunk-PVWCA6QS.mjs";import{l as W,m as C}from"./chunk-ORPPXVJ7.mjs";import"./chunk-NSQ2WS4W.mjs";import"./chunk-5ZNL27RU.mjs";import{a as Y}from"./chunk-DY4SYJHE.mjs";import{f as j}from"./chunk-AF6B7IVL.mjs";import"./chunk-IIMVO2C7.mjs";import{b as k}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-VBIQZHHY.mjs";import{b as $,g as N,h as V}from"./chunk-EI6FTGDY.mjs";import"./chunk-DN74HID4.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as Z}from"node:path";import{randomBytes as se}from"node:crypto";var S=class extends k{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},oe=8;function Q(o){let e=new k;for(let t of o)e.add(t);return e}function X(o,e,t,s,i={}){let l=t.runs[0],d=t.runs.at(-1).files[0]?.hash,c=r=>H(e.slice(0,1),l.salt,r,l.v)[0].hash;if(c(j(o,s))===d)return{same:!0};let g=B({pipeline:o,sources:e,vars:i,env:s},I(t.runs.at(-1)));if(g&&c(g)===d)return{same:!0};let p=o.secrets.filter(r=>s[r]===void 0),v=se(16).toString("hex"),L={...s,...Object.fromEntries(p.map(r=>[r,`unset-${r}-${v}`]))},y=new S,f=!1;try{P({...o,reach:void 0},L,y,"reached")}catch{f=!0}let w=e[0]?.text??"",a=[...new Set(y.learnt)].filter(r=>Q([r]).mask(w)!==w),h=a.length<=oe;return(h?Array.from({length:2**a.length},(r,E)=>a.filter((U,R)=>2**a.length-1-E>>R&1)):[a,[]]).some(r=>c(Q(r))===d)?{same:!0}:p.length===0&&!f&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:p,unlearnt:f||!h}}var ie=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,ae={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Ve(o,e){let{values:t,positionals:s}=Y("verify",o,ae);if(t.help)return e.stdout(`${ie}
`),m.ok;if(t.run===void 0&&s.length===1){let{warning:n}=T(Z(e.cwd,s[0]),"verify");n&&e.stderr(`enginectl: warning: ${u(n)}
`)}let{state:i,name:l}=await K("verify",s,t,e,async(n,O,te)=>{let ne=(e.clock??x()).now();await z(n,O,te,"verify",ne,"Nothing was verified",{confirmed:!0,warn:re=>e.stderr(`enginectl: warning: ${u(re)}
`)})}),d=F(i);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;let c=t.pipeline??i.runs.at(-1).file,g=J(d),p=C(t.var),{pipeline:v,sources:L}=await W(Z(e.cwd,c),e,{vars:p,readBack:g,checkEnv:g.size>0}),y=new k;q(v,e.env,y);let f=X(v,L,i,e.env,p);f.same||e.stderr(`enginectl: warning: ${u(le(c,f))}
`);let{now:w}=e.clock??x(),a=await _(i,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:w});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;for(let n of a)e.stdout(u(`${n.verdict.padEnd(12)} "${n.name}" (${n.doubt.method} ${n.doubt.path}): ${n.evidence}`)+`
`);let h=n=>a.filter(O=>O.verdict===n).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return m.ok;let b=t.run===void 0?"ID":$(t.run),r=i.parked&&D(i.parked,w()),E=I(i.runs.at(-1)),U=new Map(i.runs.flatMap(n=>n.instances).map(n=>[n.key,n.matrix??{}])),R=V(E,a.map(n=>U.get(n.key)??{})),A=`${N(R)}${R===E?"":" --force"}`,M=`enginectl run ${$(c)} --store URL --continue ${b}${A} --in-doubt skip or retry`,ee=`${t.run===void 0?`--resume ${$(l)}`:`--store URL --resume ${b}`}${A}`;return e.stdout(u(r&&G(r)?"then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)":r?r.park.for==="window"?`then: check on the server, then go on deciding: ${M}`:`then: check on the server, then decide: enginectl decide --store URL --run ${b} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${M}`:`then: check on the server, then resume deciding: enginectl run ${$(c)} ${ee} --in-doubt skip (applied) or retry (sent again)`)+`
`),m.failed}function le(o,e){let t="its servers are read as they are now";if(e.changed)return`${o} changed since the journal's run: ${t}`;let{missing:s}=e,i=s.map(d=>`secrets.${d}`).join(", "),l=s.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${s.length>1?"s":""} of ${i} masked, which verify is not given (its reads do not need ${s.length>1?"them":"it"}): give ${s.length>1?"them":"it"} to compare`;return`cannot tell whether ${o} changed since the journal's run: ${l}; ${t}`}export{ae as OPTIONS,ie as VERIFY_HELP,Ve as verifyCommand};
