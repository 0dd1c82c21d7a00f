import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as B}from"./chunk-WXL6KANB.mjs";import{c as _}from"./chunk-Z3VNPSUT.mjs";import"./chunk-UTUAT2NH.mjs";import{a as g}from"./chunk-4DVKTRNB.mjs";import"./chunk-LGUDIYAW.mjs";import{c as P,d as T,g as F,h as J,i as D,k as G}from"./chunk-TK4PVDTM.mjs";import"./chunk-32OQQ44X.mjs";import"./chunk-2B7OHSC2.mjs";import{b as M}from"./chunk-WRN2XRWR.mjs";import"./chunk-L4XF3THO.mjs";import{b as W,d as C}from"./chunk-USMSAZ74.mjs";import"./chunk-ISM3RTMJ.mjs";import{b as A,m as R,p as j}from"./chunk-TZ7I3GW4.mjs";import{l as N,m as V}from"./chunk-LQDFN3YY.mjs";import"./chunk-HYMVRR53.mjs";import"./chunk-5ZNL27RU.mjs";import{a as H}from"./chunk-DY4SYJHE.mjs";import{f as U}from"./chunk-FAUFJ667.mjs";import"./chunk-GSKTISK6.mjs";import{b as $}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-NQHTXKQV.mjs";import"./chunk-WBKBYSDT.mjs";import"./chunk-4JWCD5JD.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as Y}from"node:path";import{randomBytes as Z}from"node:crypto";var x=class extends ${learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},ee=8;function q(s){let e=new $;for(let t of s)e.add(t);return e}function z(s,e,t,n,i={}){let l=t.runs[0],d=t.runs.at(-1).files[0]?.hash,c=r=>J(e.slice(0,1),l.salt,r,l.v)[0].hash;if(c(U(s,n))===d)return{same:!0};let v=D({pipeline:s,sources:e,vars:i,env:n},R(t.runs.at(-1)));if(v&&c(v)===d)return{same:!0};let p=s.secrets.filter(r=>n[r]===void 0),y=Z(16).toString("hex"),I={...n,...Object.fromEntries(p.map(r=>[r,`unset-${r}-${y}`]))},w=new x,f=!1;try{A({...s,reach:void 0},I,w,"reached")}catch{f=!0}let k=e[0]?.text??"",a=[...new Set(w.learnt)].filter(r=>q([r]).mask(k)!==k),h=a.length<=ee;return(h?Array.from({length:2**a.length},(r,E)=>a.filter((O,L)=>2**a.length-1-E>>L&1)):[a,[]]).some(r=>c(q(r))===d)?{same:!0}:p.length===0&&!f&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:p,unlearnt:f||!h}}var te=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,ne={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function xe(s,e){let{values:t,positionals:n}=H("verify",s,ne);if(t.help)return e.stdout(`${te}
`),m.ok;if(t.run===void 0&&n.length===1){let{warning:o}=M(Y(e.cwd,n[0]),"verify");o&&e.stderr(`enginectl: warning: ${u(o)}
`)}let{state:i,name:l}=await B("verify",n,t,e,async(o,S,K)=>{let Q=(e.clock??j()).now();await _(o,S,K,"verify",Q,"Nothing was verified",{confirmed:!0,warn:X=>e.stderr(`enginectl: warning: ${u(X)}
`)})}),d=P(i);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;let c=t.pipeline??i.runs.at(-1).file,v=T(d),p=V(t.var),{pipeline:y,sources:I}=await N(Y(e.cwd,c),e,{vars:p,readBack:v,checkEnv:v.size>0}),w=new $;G(y,e.env,w);let f=z(y,I,i,e.env,p);f.same||e.stderr(`enginectl: warning: ${u(se(c,f))}
`);let{now:k}=e.clock??j(),a=await F(i,{pipeline:y,env:e.env,masker:w,signal:e.signal,now:k});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;for(let o of a)e.stdout(u(`${o.verdict.padEnd(12)} "${o.name}" (${o.doubt.method} ${o.doubt.path}): ${o.evidence}`)+`
`);let h=o=>a.filter(S=>S.verdict===o).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return m.ok;let b=t.run===void 0?"ID":g(t.run),r=i.parked&&W(i.parked,k()),E=re(R(i.runs.at(-1))),O=`enginectl run ${g(c)} --store URL --continue ${b}${E} --in-doubt skip or retry`,L=`${t.run===void 0?`--resume ${g(l)}`:`--store URL --resume ${b}`}${E}`;return e.stdout(u(r&&C(r)?"then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)":r?r.park.for==="window"?`then: check on the server, then go on deciding: ${O}`:`then: check on the server, then decide: enginectl decide --store URL --run ${b} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${O}`:`then: check on the server, then resume deciding: enginectl run ${g(c)} ${L} --in-doubt skip (applied) or retry (sent again)`)+`
`),m.failed}var re=s=>["only","skip"].flatMap(e=>Object.entries(s[e]).flatMap(([t,n])=>n.map(i=>` --${e} ${g(`${t}=${i}`)}`))).join("");function se(s,e){let t="its servers are read as they are now";if(e.changed)return`${s} changed since the journal's run: ${t}`;let{missing:n}=e,i=n.map(d=>`secrets.${d}`).join(", "),l=n.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${n.length>1?"s":""} of ${i} masked, which verify is not given (its reads do not need ${n.length>1?"them":"it"}): give ${n.length>1?"them":"it"} to compare`;return`cannot tell whether ${s} changed since the journal's run: ${l}; ${t}`}export{ne as OPTIONS,te as VERIFY_HELP,xe as verifyCommand};
