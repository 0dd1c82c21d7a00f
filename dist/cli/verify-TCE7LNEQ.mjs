import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as q}from"./chunk-3VFLNDGT.mjs";import{c as H}from"./chunk-LRIBD3ZX.mjs";import"./chunk-A4EQ7AGH.mjs";import"./chunk-WF7HZRBG.mjs";import{c as T,d as W,g as J,h as D,i as G,k as _}from"./chunk-TZ3GJ77Q.mjs";import"./chunk-32OQQ44X.mjs";import"./chunk-2B7OHSC2.mjs";import{b as N}from"./chunk-WRN2XRWR.mjs";import"./chunk-L4XF3THO.mjs";import{b as C,d as F}from"./chunk-2ONNV7NV.mjs";import"./chunk-ISM3RTMJ.mjs";import{b as M,m as R,p as x}from"./chunk-YJBISNTT.mjs";import{l as V,m as P}from"./chunk-G5KFFX3T.mjs";import"./chunk-Q7IDNPBS.mjs";import"./chunk-5ZNL27RU.mjs";import{a as B}from"./chunk-DY4SYJHE.mjs";import{f as A}from"./chunk-FAUFJ667.mjs";import"./chunk-GSKTISK6.mjs";import{b as k}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-NQHTXKQV.mjs";import{b as $,g as j}from"./chunk-OH6YEF74.mjs";import"./chunk-4JWCD5JD.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-73NF6YXI.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as K}from"node:path";import{randomBytes as ee}from"node:crypto";var U=class extends k{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},te=8;function z(s){let e=new k;for(let t of s)e.add(t);return e}function Y(s,e,t,r,o={}){let l=t.runs[0],d=t.runs.at(-1).files[0]?.hash,c=n=>D(e.slice(0,1),l.salt,n,l.v)[0].hash;if(c(A(s,r))===d)return{same:!0};let g=G({pipeline:s,sources:e,vars:o,env:r},R(t.runs.at(-1)));if(g&&c(g)===d)return{same:!0};let f=s.secrets.filter(n=>r[n]===void 0),v=ee(16).toString("hex"),I={...r,...Object.fromEntries(f.map(n=>[n,`unset-${n}-${v}`]))},y=new U,p=!1;try{M({...s,reach:void 0},I,y,"reached")}catch{p=!0}let w=e[0]?.text??"",a=[...new Set(y.learnt)].filter(n=>z([n]).mask(w)!==w),h=a.length<=te;return(h?Array.from({length:2**a.length},(n,E)=>a.filter((L,O)=>2**a.length-1-E>>O&1)):[a,[]]).some(n=>c(z(n))===d)?{same:!0}:f.length===0&&!p&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:f,unlearnt:p||!h}}var ne=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,re={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function Ae(s,e){let{values:t,positionals:r}=B("verify",s,re);if(t.help)return e.stdout(`${ne}
`),m.ok;if(t.run===void 0&&r.length===1){let{warning:i}=N(K(e.cwd,r[0]),"verify");i&&e.stderr(`enginectl: warning: ${u(i)}
`)}let{state:o,name:l}=await q("verify",r,t,e,async(i,S,Q)=>{let X=(e.clock??x()).now();await H(i,S,Q,"verify",X,"Nothing was verified",{confirmed:!0,warn:Z=>e.stderr(`enginectl: warning: ${u(Z)}
`)})}),d=T(o);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;let c=t.pipeline??o.runs.at(-1).file,g=W(d),f=P(t.var),{pipeline:v,sources:I}=await V(K(e.cwd,c),e,{vars:f,readBack:g,checkEnv:g.size>0}),y=new k;_(v,e.env,y);let p=Y(v,I,o,e.env,f);p.same||e.stderr(`enginectl: warning: ${u(se(c,p))}
`);let{now:w}=e.clock??x(),a=await J(o,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:w});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;for(let i of a)e.stdout(u(`${i.verdict.padEnd(12)} "${i.name}" (${i.doubt.method} ${i.doubt.path}): ${i.evidence}`)+`
`);let h=i=>a.filter(S=>S.verdict===i).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return m.ok;let b=t.run===void 0?"ID":$(t.run),n=o.parked&&C(o.parked,w()),E=j(R(o.runs.at(-1))),L=`enginectl run ${$(c)} --store URL --continue ${b}${E} --in-doubt skip or retry`,O=`${t.run===void 0?`--resume ${$(l)}`:`--store URL --resume ${b}`}${E}`;return e.stdout(u(n&&F(n)?"then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)":n?n.park.for==="window"?`then: check on the server, then go on deciding: ${L}`:`then: check on the server, then decide: enginectl decide --store URL --run ${b} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${L}`:`then: check on the server, then resume deciding: enginectl run ${$(c)} ${O} --in-doubt skip (applied) or retry (sent again)`)+`
`),m.failed}function se(s,e){let t="its servers are read as they are now";if(e.changed)return`${s} changed since the journal's run: ${t}`;let{missing:r}=e,o=r.map(d=>`secrets.${d}`).join(", "),l=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${o} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${s} changed since the journal's run: ${l}; ${t}`}export{re as OPTIONS,ne as VERIFY_HELP,Ae as verifyCommand};
