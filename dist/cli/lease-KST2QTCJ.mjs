import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as u,c as $,d as g}from"./chunk-TJO4IEWA.mjs";import{g as p}from"./chunk-B6B53UVJ.mjs";import"./chunk-EQAFZWCK.mjs";import"./chunk-2WDUQLDQ.mjs";import{r as A,s as T}from"./chunk-K73OXJTL.mjs";import"./chunk-W6ITXQKC.mjs";import{a as d}from"./chunk-DJA6MMAV.mjs";import{a as y}from"./chunk-QXZQ23ZW.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-Z64KPMGZ.mjs";import"./chunk-WY7HSKQS.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-WZR53DJA.mjs";import"./chunk-F2F24H5K.mjs";import"./chunk-5AIDX52M.mjs";import{a,c as i}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";var U=`Usage: enginectl lease status --store URL NAME
       enginectl lease release --store URL NAME --reason TEXT

status: who holds the fleet lease NAME (run id, actor, host, CI run), since when and until when,
and the runs queued for it. release: gives up a lease whose holder is gone (a lost runner), with
your reason, recorded in the lease: the next run takes it at once, and the holder, if it still
runs, sends nothing more.

Options:
  --store URL    the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --reason TEXT  with release: why (recorded with who released it)
  -h, --help     show this help

Exit codes: 0, 2 invalid input.`;async function D(N,t){let{values:l,positionals:S}=y("lease",N,{store:{type:"string"},reason:{type:"string"}});if(l.help)return t.stdout(`${U}
`),a.ok;let[h,r,...k]=S;if(h!=="status"&&h!=="release"||r===void 0||k.length>0)throw new i("BAD_ARGUMENTS","lease: say lease status NAME or lease release NAME --reason TEXT",{hint:"enginectl lease status --store s3://BUCKET/PREFIX prod-fleet"});let E=l.store??t.env[A];if(E===void 0)throw new i("BAD_ARGUMENTS","lease: give --store URL (or ENGINECTL_STORE)");let o=T(E,t.cwd,t.env),n=await g(o,$(r)),c=f=>new Date(f).toISOString();if(h==="status"){if(!n)t.stdout(`lease ${r}: never taken
`);else{let e=n.record,s=e.holder,m=e.kind!=="release"&&Date.now()<=e.expiresAt;t.stdout(d(`lease ${r}: ${e.kind==="release"?`free (released ${c(e.at)}${e.by?` by ${e.by}`:""}${e.reason?`: ${e.reason}`:""})`:`${m?"held":"expired"} by run ${s.runId} of ${s.actor} on ${s.host}${s.ciRunUrl?` (${s.ciRunUrl})`:""}, ${m?"until":"since"} ${c(e.expiresAt)}`}`)+`
`)}let f=(await o.list(`${u(r)}queue/`)).filter(e=>/\/[0-9]{8}$/.test(e)),R=new Set((await o.list(`${u(r)}queue/`)).filter(e=>e.endsWith(".withdrawn")).map(e=>e.slice(0,-10))),b=n?.record.served??0;for(let e of f){if(Number(e.slice(-8))<=b||R.has(e))continue;let s=JSON.parse((await o.get(e))?.toString("utf8")??"{}");(s.until??0)>Date.now()&&t.stdout(d(`  queued: run ${s.runId??"?"} (ticket ${Number(e.slice(-8))}), waiting until ${c(s.until)}`)+`
`)}return a.ok}if(!l.reason?.trim())throw new i("BAD_ARGUMENTS","lease release: give --reason TEXT (recorded with who released it)");if(!n||n.record.kind==="release")return t.stdout(`lease ${r}: already free
`),a.ok;let w={...n.record,kind:"release",at:Date.now(),expiresAt:Date.now(),reason:l.reason.trim(),by:p(t.env),evidence:void 0};if(!await o.create(`${u(r)}${String(n.seq+1).padStart(8,"0")}`,Buffer.from(JSON.stringify(w))))throw new i("LEASE_HELD",`lease ${r} changed while it was being released (its holder renewed it, or another took it): nothing was released`,{hint:"see enginectl lease status, then release again if its holder is gone"});return t.stdout(d(`lease ${r}: released by ${w.by}: ${w.reason}`)+`
`),a.ok}export{U as LEASE_HELP,D as leaseCommand};
