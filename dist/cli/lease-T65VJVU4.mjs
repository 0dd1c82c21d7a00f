import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as E,d as k,e as $,f as v,g as y}from"./chunk-TIEHKLZQ.mjs";import{k as L,l as S}from"./chunk-TCK36ZAH.mjs";import"./chunk-UMACTPYB.mjs";import"./chunk-KT7S2Q7T.mjs";import{j as I}from"./chunk-TK33ZK6I.mjs";import"./chunk-XQTTTUNZ.mjs";import{b as g}from"./chunk-DKFZP6P3.mjs";import{j as T,k as M}from"./chunk-WJFLBLJV.mjs";import"./chunk-WOLPMX55.mjs";import"./chunk-VDV5YBTC.mjs";import"./chunk-AK7T77PR.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-YJJUA57P.mjs";import{l as R,s as x,z as N}from"./chunk-WHKVFSKO.mjs";import{d as A}from"./chunk-YHQYLPWT.mjs";import{a as U}from"./chunk-QSJG675I.mjs";import{a as h}from"./chunk-EAYVXTMU.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-3EIHYVGH.mjs";import"./chunk-DECUCENR.mjs";import"./chunk-T3QUBQYD.mjs";import"./chunk-D4Y5VCNB.mjs";import"./chunk-HELPYNUO.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XU4XB32F.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-TR2GVION.mjs";import{a as p,c as l}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";import{resolve as P}from"node:path";async function b(s){let t=new g,{io:n}=s,i=async e=>{let{pipeline:d}=await T(P(n.cwd,e),n,{vars:M(s.vars)});S(d,n.env,t)};if(s.pipeline!==void 0)return await i(s.pipeline).catch(e=>{throw new l("BAD_ARGUMENTS",`lease release --pipeline ${s.pipeline}: ${e.message}: nothing was released (its secrets mask the reason)`)}),t;let a=s.record.holder.runId;try{await i(await C(s.store,s.name,a,n.env))}catch(e){s.warn(`the reason is recorded as given: the pipeline of the lease's holder (run ${a}) could not be read to mask its secrets in it (${e.message}); give --pipeline FILE`)}return t}async function C(s,t,n,i){let a=/^(.+)\.shard-\d+$/.exec(t),e=a?await I(s,a[1]).catch(()=>{}):void 0;if(e)return e.file;let{text:d}=await x(s,n);return R(d,`run ${n}`,A(i)).runs.at(-1).file}var D=`Usage: enginectl lease status --store URL NAME
       enginectl lease release --store URL NAME --reason TEXT [--pipeline FILE [--var NAME=VALUE]...]

status: who holds the fleet lease NAME (run id, actor, host, CI run), since when and until when,
and the runs queued for it. release: gives up a lease whose holder is gone (a lost runner), with
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

Exit codes: 0, 1 the store failed or holds a lease record that is not enginectl's, 2 invalid input.`,F={store:{type:"string"},reason:{type:"string"},pipeline:{type:"string"},var:{type:"string",multiple:!0}};async function te(s,t){let{values:n,positionals:i}=U("lease",s,F);if(n.help)return t.stdout(`${D}
`),p.ok;let[a,e,...d]=i;if(a!=="status"&&a!=="release"||e===void 0||d.length>0)throw new l("BAD_ARGUMENTS","lease: say lease status NAME or lease release NAME --reason TEXT",{hint:"enginectl lease status --store s3://BUCKET/PREFIX prod-fleet"});let c=await N("lease",n.store,t.env,t.cwd),o=await k(c,E(e)),m=r=>new Date(r).toISOString();if(a==="status"){if(!o)t.stdout(`lease ${e}: never taken
`);else{let r=o.record,w=r.kind!=="release"&&Date.now()<=r.expiresAt;t.stdout(h(`lease ${e}: ${r.kind==="release"?`free (released ${m(r.at)}${r.by?` by ${r.by}`:""}${r.reason?`: ${r.reason}`:""})`:`${w?"held":"expired"} by ${y(r.holder)}, ${w?"until":"since"} ${m(r.expiresAt)}`}`)+`
`)}for(let r of await $(c,e,o?.record.served??0,Date.now()))t.stdout(h(`  queued: run ${r.runId} (ticket ${r.n}), waiting until ${m(r.until)}`)+`
`);return p.ok}if(!n.reason?.trim())throw new l("BAD_ARGUMENTS","lease release: give --reason TEXT (recorded with who released it)");if(!o||o.record.kind==="release")return t.stdout(`lease ${e}: already free
`),p.ok;let u=L(t.env),f=(await b({store:c,name:e,record:o.record,pipeline:n.pipeline,vars:n.var,io:t,warn:r=>t.stderr(`enginectl: warning: ${h(r)}
`)})).mask(n.reason.trim());if(!await v(c,e,o,u,f,Date.now()))throw new l("LEASE_HELD",`lease ${e} changed while it was being released (its holder renewed it, or another took it): nothing was released`,{hint:"see enginectl lease status, then release again if its holder is gone"});return t.stdout(h(`lease ${e}: released by ${u}: ${f}`)+`
`),p.ok}export{D as LEASE_HELP,F as OPTIONS,te as leaseCommand};
