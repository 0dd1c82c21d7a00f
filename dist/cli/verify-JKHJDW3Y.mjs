import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as T}from"./chunk-XR573TKY.mjs";import{c as V}from"./chunk-LVYJHPH2.mjs";import"./chunk-64TLTC2A.mjs";import{e as A,f as M,h as C,i as F,j as N,l as P}from"./chunk-TYPU3N4C.mjs";import"./chunk-WSVXPAOB.mjs";import"./chunk-GSSBL3Q7.mjs";import{e as j}from"./chunk-A3UPAW3Q.mjs";import{b as x}from"./chunk-VQHRHB2Q.mjs";import{j as L,k as S}from"./chunk-LHW3YAJD.mjs";import"./chunk-ZJYDXRX7.mjs";import"./chunk-VRT2HYN2.mjs";import{f as R}from"./chunk-QDYZBZAH.mjs";import"./chunk-Q5WOMQZT.mjs";import{b as w}from"./chunk-J3JAVBK2.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-2JPW2VWN.mjs";import{f as O,r as I}from"./chunk-CYNJA74C.mjs";import"./chunk-33TJWHGS.mjs";import{a as J}from"./chunk-DY4SYJHE.mjs";import{b as h}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-BTSQROBY.mjs";import"./chunk-NGRWKBKU.mjs";import"./chunk-7FCY3UBY.mjs";import"./chunk-GUH6SEHT.mjs";import"./chunk-GBI3QX7M.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-YCDM3PQD.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-QBTB3T6B.mjs";import{a as m}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as D}from"node:path";import{randomBytes as H}from"node:crypto";var E=class extends w{learnt=[];add(e,t){typeof e=="string"&&this.learnt.push(e),super.add(e,t)}},B=8;function U(i){let e=new w;for(let t of i)e.add(t);return e}function W(i,e,t,r,a={}){let d=t.runs[0],l=t.runs.at(-1).files[0]?.hash,u=s=>F(e.slice(0,1),d.salt,s,d.v)[0].hash;if(u(R(i,r))===l)return{same:!0};let g=N({pipeline:i,sources:e,vars:a,env:r},O(t.runs.at(-1)));if(g&&u(g)===l)return{same:!0};let f=i.secrets.filter(s=>r[s]===void 0),v=H(16).toString("hex"),b={...r,...Object.fromEntries(f.map(s=>[s,`unset-${s}-${v}`]))},y=new E,p=!1;try{x({...i,reach:void 0},b,y,"reached")}catch{p=!0}let c=e[0]?.text??"",o=[...new Set(y.learnt)].filter(s=>U([s]).mask(c)!==c),n=o.length<=B;return(n?Array.from({length:2**o.length},(s,$)=>o.filter((Y,_)=>2**o.length-1-$>>_&1)):[o,[]]).some(s=>u(U(s))===l)?{same:!0}:f.length===0&&!p&&n?{same:!1,changed:!0}:{same:!1,changed:!1,missing:f,unlearnt:p||!n}}var G=`Usage: enginectl verify JOURNAL [options]

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
1 at least one cannot be told, 2 invalid input or the journal in use by a live run.`,q={pipeline:{type:"string"},var:{type:"string",multiple:!0},store:{type:"string"},run:{type:"string"}};async function ye(i,e){let{values:t,positionals:r}=J("verify",i,q);if(t.help)return e.stdout(`${G}
`),m.ok;if(t.run===void 0&&r.length===1){let{warning:n}=j(D(e.cwd,r[0]),"verify");n&&e.stderr(`enginectl: warning: ${h(n)}
`)}let{state:a,name:d}=await T("verify",r,t,e,async(n,k,s)=>{let{warning:$}=await V(n,k,s,"verify",(e.clock??I()).now());$&&e.stderr(`enginectl: warning: ${h($)}
`)}),l=A(a);if(l.length===0)return e.stdout(`nothing is in doubt in ${h(d)}
`),m.ok;let u=t.pipeline??a.runs.at(-1).file,g=M(l),f=S(t.var),{pipeline:v,sources:b}=await L(D(e.cwd,u),e,{vars:f,readBack:g,checkEnv:g.size>0}),y=new w;P(v,e.env,y);let p=W(v,b,a,e.env,f);p.same||e.stderr(`enginectl: warning: ${h(z(u,p))}
`);let c=await C(a,{pipeline:v,env:e.env,masker:y,signal:e.signal,now:Date.now});if(c.length===0)return e.stdout(`nothing is in doubt in ${h(d)}
`),m.ok;for(let n of c)e.stdout(h(`${n.verdict.padEnd(12)} "${n.name}" (${n.doubt.method} ${n.doubt.path}): ${n.evidence}`)+`
`);let o=n=>c.filter(k=>k.verdict===n).length;return e.stdout(`${c.length} in doubt: ${o("applied")} applied, ${o("not-applied")} not applied, ${o("cannot-tell")} cannot tell
`),o("cannot-tell")>0?m.failed:m.ok}function z(i,e){let t="its servers are read as they are now";if(e.changed)return`${i} changed since the journal's run: ${t}`;let{missing:r}=e,a=r.map(l=>`secrets.${l}`).join(", "),d=r.length===0?"the secrets it holds could not all be learnt here (the run hashed it with them masked)":`the run hashed it with the value${r.length>1?"s":""} of ${a} masked, which verify is not given (its reads do not need ${r.length>1?"them":"it"}): give ${r.length>1?"them":"it"} to compare`;return`cannot tell whether ${i} changed since the journal's run: ${d}; ${t}`}export{q as OPTIONS,G as VERIFY_HELP,ye as verifyCommand};
