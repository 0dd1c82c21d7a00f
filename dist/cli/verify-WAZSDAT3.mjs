import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as H}from"./chunk-NMWNYQJ2.mjs";import{c as G}from"./chunk-I72GZCOA.mjs";import"./chunk-LZBOR2DT.mjs";import{a as $}from"./chunk-4DVKTRNB.mjs";import"./chunk-UQWPG6EH.mjs";import{c as V,d as P,g as F,h as W,i as J,k as D}from"./chunk-NNRS46O2.mjs";import"./chunk-FVHVYBDC.mjs";import"./chunk-5GNPJKF5.mjs";import{b as j}from"./chunk-WRN2XRWR.mjs";import"./chunk-KOECK2SE.mjs";import{b as T,d as C}from"./chunk-365KNEHC.mjs";import{j as A}from"./chunk-Q3EOIW4P.mjs";import{b as U,f as L}from"./chunk-XTMATYCQ.mjs";import{k as M,l as N}from"./chunk-CQR3MUXE.mjs";import"./chunk-TX3HXEEX.mjs";import"./chunk-5ZNL27RU.mjs";import{a as _}from"./chunk-DY4SYJHE.mjs";import{f as x}from"./chunk-FAUFJ667.mjs";import"./chunk-GSKTISK6.mjs";import{b as k}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-NQHTXKQV.mjs";import"./chunk-IQULTVJT.mjs";import"./chunk-4JWCD5JD.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as z}from"node:path";import{randomBytes as X}from"node:crypto";var O=class extends k{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},Z=8;function B(i){let e=new k;for(let t of i)e.add(t);return e}function q(i,e,t,r,o={}){let l=t.runs[0],d=t.runs.at(-1).files[0]?.hash,c=n=>W(e.slice(0,1),l.salt,n,l.v)[0].hash;if(c(x(i,r))===d)return{same:!0};let g=J({pipeline:i,sources:e,vars:o,env:r},A(t.runs.at(-1)));if(g&&c(g)===d)return{same:!0};let p=i.secrets.filter(n=>r[n]===void 0),v=X(16).toString("hex"),R={...r,...Object.fromEntries(p.map(n=>[n,`unset-${n}-${v}`]))},y=new O,f=!1;try{U({...i,reach:void 0},R,y,"reached")}catch{f=!0}let w=e[0]?.text??"",a=[...new Set(y.learnt)].filter(n=>B([n]).mask(w)!==w),h=a.length<=Z;return(h?Array.from({length:2**a.length},(n,E)=>a.filter((S,s)=>2**a.length-1-E>>s&1)):[a,[]]).some(n=>c(B(n))===d)?{same:!0}:p.length===0&&!f&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:p,unlearnt:f||!h}}var ee=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,te={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Oe(i,e){let{values:t,positionals:r}=_("verify",i,te);if(t.help)return e.stdout(`${ee}
`),m.ok;if(t.run===void 0&&r.length===1){let{warning:s}=j(z(e.cwd,r[0]),"verify");s&&e.stderr(`enginectl: warning: ${u(s)}
`)}let{state:o,name:l}=await H("verify",r,t,e,async(s,I,Y)=>{let K=(e.clock??L()).now();await G(s,I,Y,"verify",K,"Nothing was verified",{confirmed:!0,warn:Q=>e.stderr(`enginectl: warning: ${u(Q)}
`)})}),d=V(o);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;let c=t.pipeline??o.runs.at(-1).file,g=P(d),p=N(t.var),{pipeline:v,sources:R}=await M(z(e.cwd,c),e,{vars:p,readBack:g,checkEnv:g.size>0}),y=new k;D(v,e.env,y);let f=q(v,R,o,e.env,p);f.same||e.stderr(`enginectl: warning: ${u(ne(c,f))}
`);let{now:w}=e.clock??L(),a=await F(o,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:w});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;for(let s of a)e.stdout(u(`${s.verdict.padEnd(12)} "${s.name}" (${s.doubt.method} ${s.doubt.path}): ${s.evidence}`)+`
`);let h=s=>a.filter(I=>I.verdict===s).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return m.ok;let b=t.run===void 0?"ID":$(t.run),n=o.parked&&T(o.parked,w()),E=`enginectl run ${$(c)} --store URL --continue ${b} --in-doubt skip or retry`,S=t.run===void 0?`--resume ${$(l)}`:`--store URL --resume ${b}`;return e.stdout(u(n&&C(n)?"then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)":n?n.park.for==="window"?`then: check on the server, then go on deciding: ${E}`:`then: check on the server, then decide: enginectl decide --store URL --run ${b} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${E}`:`then: check on the server, then resume deciding: enginectl run ${$(c)} ${S} --in-doubt skip (applied) or retry (sent again)`)+`
`),m.failed}function ne(i,e){let t="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${t}`;let{missing:r}=e,o=r.map(d=>`secrets.${d}`).join(", "),l=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${o} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${l}; ${t}`}export{te as OPTIONS,ee as VERIFY_HELP,Oe as verifyCommand};
