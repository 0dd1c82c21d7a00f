import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as Z}from"./chunk-TMIQAAYI.mjs";import{c as Q}from"./chunk-NUDCIXD3.mjs";import"./chunk-BYQ672CU.mjs";import"./chunk-DDA2XOSE.mjs";import{c as G,d as _,g as q,h as z,i as Y,k as K}from"./chunk-KABJNKHT.mjs";import"./chunk-T4SVC5BY.mjs";import"./chunk-E5H5WF5W.mjs";import{b as F}from"./chunk-WRN2XRWR.mjs";import"./chunk-O24G6PQ2.mjs";import{b as H,d as B}from"./chunk-SJLH4D6D.mjs";import"./chunk-XRXIEJY5.mjs";import{b as C,m as I,p as S}from"./chunk-QJP46TPJ.mjs";import{l as J,m as D}from"./chunk-WZWVZUBF.mjs";import"./chunk-JWJNBBXZ.mjs";import"./chunk-ZIS3IX27.mjs";import{a as X}from"./chunk-DY4SYJHE.mjs";import{f as V}from"./chunk-NIWER7NM.mjs";import"./chunk-IIMVO2C7.mjs";import{b as $}from"./chunk-J3JAVBK2.mjs";import{e as u}from"./chunk-W3YLBX4Z.mjs";import"./chunk-VBIQZHHY.mjs";import{b,e as P,g as x,h as T,i as W}from"./chunk-L77RRKAT.mjs";import"./chunk-B6EYII5P.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-FRMWDYEW.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-HU3XK3AR.mjs";import"./chunk-BFQOYHR7.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as ne}from"node:path";import{randomBytes as ae}from"node:crypto";var U=class extends ${learnt=[];add(e,n){typeof e=="string"&&this.learnt.push(e),super.add(e,n)}},le=8;function ee(i){let e=new $;for(let n of i)e.add(n);return e}function te(i,e,n,s,o={}){let l=n.runs[0],d=n.runs.at(-1).files[0]?.hash,c=r=>z(e.slice(0,1),l.salt,r,l.v)[0].hash;if(c(V(i,s))===d)return{same:!0};let g=Y({pipeline:i,sources:e,vars:o,env:s},I(n.runs.at(-1)));if(g&&c(g)===d)return{same:!0};let p=i.secrets.filter(r=>s[r]===void 0),v=ae(16).toString("hex"),L={...s,...Object.fromEntries(p.map(r=>[r,`unset-${r}-${v}`]))},y=new U,f=!1;try{C({...i,reach:void 0},L,y,"reached")}catch{f=!0}let w=e[0]?.text??"",a=[...new Set(y.learnt)].filter(r=>ee([r]).mask(w)!==w),h=a.length<=le;return(h?Array.from({length:2**a.length},(r,k)=>a.filter((j,R)=>2**a.length-1-k>>R&1)):[a,[]]).some(r=>c(ee(r))===d)?{same:!0}:p.length===0&&!f&&h?{same:!1,changed:!0}:{same:!1,changed:!1,missing:p,unlearnt:f||!h}}var de=`Usage: enginectl verify JOURNAL [options]

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
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`,ce={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function We(i,e){let{values:n,positionals:s}=X("verify",i,ce);if(n.help)return e.stdout(`${de}
`),m.ok;if(n.run===void 0&&s.length===1){let{warning:t}=F(ne(e.cwd,s[0]),"verify");t&&e.stderr(`enginectl: warning: ${u(t)}
`)}let{state:o,name:l}=await Z("verify",s,n,e,async(t,O,se)=>{let ie=(e.clock??S()).now();await Q(t,O,se,"verify",ie,"Nothing was verified",{confirmed:!0,warn:oe=>e.stderr(`enginectl: warning: ${u(oe)}
`)})}),d=G(o);if(d.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;let c=n.pipeline??o.runs.at(-1).file,g=_(d),p=D(n.var),{pipeline:v,sources:L}=await J(ne(e.cwd,c),e,{vars:p,readBack:g,checkEnv:g.size>0}),y=new $;K(v,e.env,y);let f=te(v,L,o,e.env,p);f.same||e.stderr(`enginectl: warning: ${u(he(c,f))}
`);let{now:w}=e.clock??S(),a=await q(o,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:w});if(a.length===0)return e.stdout(`nothing is in doubt in ${u(l)}
`),m.ok;for(let t of a)e.stdout(u(`${t.verdict.padEnd(12)} "${t.name}" (${t.doubt.method} ${t.doubt.path}): ${t.evidence}`)+`
`);let h=t=>a.filter(O=>O.verdict===t).length;if(e.stdout(`${a.length} in doubt: ${h("applied")} applied, ${h("not-applied")} not applied, ${h("cannot-tell")} cannot tell
`),h("cannot-tell")===0)return m.ok;let E=n.run===void 0?"ID":b(n.run),r=o.parked&&H(o.parked,w()),k=I(o.runs.at(-1)),j=new Map(o.runs.flatMap(t=>t.instances).map(t=>[t.key,t.matrix??{}])),R=a.map(t=>j.get(t.key)??{}),A=R.every(t=>P(t,k)),M=A?x(k):`${x(T(R))} --force`,N=`enginectl run ${b(c)} --store URL --continue ${E}${M} --in-doubt skip or retry`,re=`${n.run===void 0?`--resume ${b(l)}`:`--store URL --resume ${E}`}${M}`;return e.stdout(u(r&&B(r)?"then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)":r?r.park.for==="window"?`then: check on the server, then go on deciding: ${N}`:`then: check on the server, then decide: enginectl decide --store URL --run ${E} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${N}`:`then: check on the server, then resume deciding: enginectl run ${b(c)} ${re} --in-doubt skip (applied) or retry (sent again)${A?"":`; the calls in doubt lie outside the journal's last run (${W(k)??"every instance"}): this selects them by their matrix values, and runs what else it selects that is not done`}`)+`
`),m.failed}function he(i,e){let n="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${n}`;let{missing:s}=e,o=s.map(d=>`secrets.${d}`).join(", "),l=s.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${s.length>1?"s":""} of ${o} masked, which verify is not given (its reads do not need ${s.length>1?"them":"it"}): give ${s.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${l}; ${n}`}export{ce as OPTIONS,de as VERIFY_HELP,We as verifyCommand};
