import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as $,d as v,e as f,f as y,g as A}from"./chunk-6CLP2M2H.mjs";import{l as x,m as N}from"./chunk-O7NY3XMH.mjs";import"./chunk-LCR65N75.mjs";import"./chunk-LQ6EOPKS.mjs";import{k as b}from"./chunk-QUXP5ZTK.mjs";import"./chunk-6H6HQWPI.mjs";import{j as L,k as S}from"./chunk-PCWTJ5BP.mjs";import"./chunk-HVZ3R6CZ.mjs";import"./chunk-6YBQFXHD.mjs";import"./chunk-4UXHVJCU.mjs";import"./chunk-MSGZM6NX.mjs";import{b as k}from"./chunk-UITV77XY.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-NYLVURMI.mjs";import{E as U,l as T,r as M,v as I}from"./chunk-5XZVTQK5.mjs";import{d as R}from"./chunk-J74PVKSW.mjs";import{a as P}from"./chunk-QIUMUP7C.mjs";import{a as p}from"./chunk-B6ZPHE6B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-SXD2BRGN.mjs";import"./chunk-UUTMKJPH.mjs";import"./chunk-YPOBTAFB.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-CI57L6OA.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-23MQ7P26.mjs";import"./chunk-JQWCGJAR.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-TR2GVION.mjs";import{a as c,c as l}from"./chunk-BATXWL3Q.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as F}from"node:path";async function C(s){let t=new k,{io:n}=s,i=async r=>{let{pipeline:d}=await L(F(n.cwd,r),n,{vars:S(s.vars)});N(d,n.env,t)};if(s.pipeline!==void 0)return await i(s.pipeline).catch(r=>{throw new l("BAD_ARGUMENTS",`lease release --pipeline ${s.pipeline}: ${r.message}: nothing was released (its secrets mask the reason)`)}),t;let a=s.record.holder.runId;try{await i(await O(s.store,s.name,a,n.env))}catch(r){s.warn(`the reason is recorded as given: the pipeline of the lease's holder (run ${a}) could not be read to mask its secrets in it (${r.message}); give --pipeline FILE`)}return t}async function O(s,t,n,i){let a=/^(.+)\.shard-\d+$/.exec(t),r=a?await b(s,a[1]).catch(()=>{}):void 0;if(r)return r.file;let{text:d}=await I(s,n);return T(d,`run ${n}`,R(i)).runs.at(-1).file}var X=`Usage: enginectl lease status --store URL NAME
       enginectl lease release --store URL NAME --reason TEXT [--pipeline FILE [--var NAME=VALUE]...]

status: who holds the fleet lease NAME (run id, actor, host, CI run), since when and until when,
and the runs queued for it (a waiter renews its place while it waits; one that is gone holds it
no longer than the lease's ttl). release: gives up a lease whose holder is gone (a lost runner), with
your reason, recorded in the lease: the next run takes it at once, and the holder, if it still
runs, sends nothing more. The reason is masked first with the secrets of the pipeline the holder
ran (their values read from this environment, as decide --reason masks its own).

Options:
  --store URL       the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --reason TEXT     with release: why (recorded with who released it, masked)
  --pipeline FILE   with release: the pipeline whose secrets are masked in the reason (default: the
                    file the holder's run named, read from the store; said when it cannot be read)
  --var NAME=VALUE  a var that pipeline reads, as given to run (repeatable)
  -h, --help        show this help

Exit codes: 0, 1 the store failed or holds a lease record that is not enginectl's, 2 invalid input.`,_={store:{type:"string"},reason:{type:"string"},pipeline:{type:"string"},var:{type:"string",multiple:!0}};async function ae(s,t){let{values:n,positionals:i}=P("lease",s,_);if(n.help)return t.stdout(`${X}
`),c.ok;let[a,r,...d]=i;if(a!=="status"&&a!=="release"||r===void 0||d.length>0)throw new l("BAD_ARGUMENTS","lease: say lease status NAME or lease release NAME --reason TEXT",{hint:"enginectl lease status --store s3://BUCKET/PREFIX prod-fleet"});let h=await U("lease",n.store,t.env,t.cwd),o=await v(h,$(r)),u=e=>new Date(e).toISOString(),m=(t.clock??M()).now();if(a==="status"){if(!o)t.stdout(`lease ${r}: never taken
`);else{let e=o.record,E=e.kind!=="release"&&m<=e.expiresAt;t.stdout(p(`lease ${r}: ${e.kind==="release"?`free (released ${u(e.at)}${e.by?` by ${e.by}`:""}${e.reason?`: ${e.reason}`:""})`:`${E?"held":"expired"} by ${A(e.holder)}, ${E?"until":"since"} ${u(e.expiresAt)}`}`)+`
`)}for(let e of await f(h,r,o?.record.served??0,m))t.stdout(p(`  queued: run ${e.runId} (ticket ${e.n}), waiting until ${u(e.until)}`)+`
`);return c.ok}if(!n.reason?.trim())throw new l("BAD_ARGUMENTS","lease release: give --reason TEXT (recorded with who released it)");if(!o||o.record.kind==="release"){let e=await f(h,r,o?.record.served??0,m);return t.stdout(`lease ${r}: already free${e.length?`; ${e.length} run(s) queued for it take it in turn (a waiter that is gone holds its place no longer than the lease's ttl)`:""}
`),c.ok}let w=x(t.env),g=(await C({store:h,name:r,record:o.record,pipeline:n.pipeline,vars:n.var,io:t,warn:e=>t.stderr(`enginectl: warning: ${p(e)}
`)})).mask(n.reason.trim());if(!await y(h,r,o,w,g,m))throw new l("LEASE_HELD",`lease ${r} changed while it was being released (its holder renewed it, or another took it): nothing was released`,{hint:"see enginectl lease status, then release again if its holder is gone"});return t.stdout(p(`lease ${r}: released by ${w}: ${g}`)+`
`),c.ok}export{X as LEASE_HELP,_ as OPTIONS,ae as leaseCommand};
