import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as f,d as E,e as m,f as p,g}from"./chunk-Z47MWB77.mjs";import{k as $}from"./chunk-GP7JW4DS.mjs";import"./chunk-UMACTPYB.mjs";import"./chunk-OZUJ5UJT.mjs";import"./chunk-4HGW5UYU.mjs";import"./chunk-NZS4CDM2.mjs";import"./chunk-H76BLFXS.mjs";import"./chunk-ODKN3ZZ4.mjs";import"./chunk-AK7T77PR.mjs";import"./chunk-YJJUA57P.mjs";import{z as T}from"./chunk-ISTHA4XH.mjs";import"./chunk-YHQYLPWT.mjs";import{a as A}from"./chunk-QSJG675I.mjs";import{a as i}from"./chunk-EAYVXTMU.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-SK7TNESB.mjs";import"./chunk-REJWNMPZ.mjs";import"./chunk-L5J537BL.mjs";import"./chunk-LZLXTYYJ.mjs";import"./chunk-XZQD6HMY.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XU4XB32F.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-5AIDX52M.mjs";import{a as n,c as a}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";var x=`Usage: enginectl lease status --store URL NAME
       enginectl lease release --store URL NAME --reason TEXT

status: who holds the fleet lease NAME (run id, actor, host, CI run), since when and until when,
and the runs queued for it. release: gives up a lease whose holder is gone (a lost runner), with
your reason, recorded in the lease: the next run takes it at once, and the holder, if it still
runs, sends nothing more.

Options:
  --store URL    the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --reason TEXT  with release: why (recorded with who released it)
  -h, --help     show this help

Exit codes: 0, 1 the store failed or holds a lease record that is not enginectl's, 2 invalid input.`,R={store:{type:"string"},reason:{type:"string"}};async function v(y,t){let{values:o,positionals:k}=A("lease",y,R);if(o.help)return t.stdout(`${x}
`),n.ok;let[l,s,...N]=k;if(l!=="status"&&l!=="release"||s===void 0||N.length>0)throw new a("BAD_ARGUMENTS","lease: say lease status NAME or lease release NAME --reason TEXT",{hint:"enginectl lease status --store s3://BUCKET/PREFIX prod-fleet"});let d=await T("lease",o.store,t.env,t.cwd),r=await E(d,f(s)),h=e=>new Date(e).toISOString();if(l==="status"){if(!r)t.stdout(`lease ${s}: never taken
`);else{let e=r.record,w=e.kind!=="release"&&Date.now()<=e.expiresAt;t.stdout(i(`lease ${s}: ${e.kind==="release"?`free (released ${h(e.at)}${e.by?` by ${e.by}`:""}${e.reason?`: ${e.reason}`:""})`:`${w?"held":"expired"} by ${g(e.holder)}, ${w?"until":"since"} ${h(e.expiresAt)}`}`)+`
`)}for(let e of await m(d,s,r?.record.served??0,Date.now()))t.stdout(i(`  queued: run ${e.runId} (ticket ${e.n}), waiting until ${h(e.until)}`)+`
`);return n.ok}if(!o.reason?.trim())throw new a("BAD_ARGUMENTS","lease release: give --reason TEXT (recorded with who released it)");if(!r||r.record.kind==="release")return t.stdout(`lease ${s}: already free
`),n.ok;let u=$(t.env),c=o.reason.trim();if(!await p(d,s,r,u,c,Date.now()))throw new a("LEASE_HELD",`lease ${s} changed while it was being released (its holder renewed it, or another took it): nothing was released`,{hint:"see enginectl lease status, then release again if its holder is gone"});return t.stdout(i(`lease ${s}: released by ${u}: ${c}`)+`
`),n.ok}export{x as LEASE_HELP,R as OPTIONS,v as leaseCommand};
