import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as M,b as P}from"./chunk-PNCFO5J5.mjs";import"./chunk-UEYJNS5H.mjs";import"./chunk-ZTLXJAVK.mjs";import{c as b}from"./chunk-5S5YKYQC.mjs";import{f as L}from"./chunk-OCWTDD7L.mjs";import"./chunk-B5B6H6SZ.mjs";import"./chunk-6DCNIRPS.mjs";import{b as C,c as N,d as v}from"./chunk-U4ZAGPRP.mjs";import"./chunk-AN3FC4KG.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import{D as u}from"./chunk-DOOG3CUU.mjs";import"./chunk-PW43Y33T.mjs";import{a as x,b as O,q as k,r as S}from"./chunk-OFVGQUYN.mjs";import"./chunk-Q552WKUS.mjs";import{a as f,b as A,c as I,f as E,g as T}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var R=`enginectl ${u}: deployment pipelines for the enterprise system's HTTP API

Usage: enginectl <command> [options]

Commands:
  run FILE              validate, then run a pipeline (--dry-run, --emulator, --var, --only,
                        --journal F, --resume F)
  report JOURNAL        render the reports of a run from its journal, also of a killed run
  report --merge F...   the reports (or journals) of a fleet's jobs as one report
  verify JOURNAL        read back the targets of a journal's in-doubt calls: applied or not
  runs --store URL      the runs a run store holds (run --store URL): resume, report or verify one
                        from any machine by its id (report --store URL --run ID); --parked:
                        the parked runs (run exited 75) and what each waits for
  decide --store URL --run ID
                        what a parked run waits for, with the evidence; --retry, --skip,
                        --exclude VALUE, --continue, --abort: the decision, recorded
  shard FILE --store URL --shards N
                        plan a run over N workers the CI system or a cluster runs (each: run
                        --store URL --run ID --shard I/N); waves and one failure budget across them
  lease status NAME     who holds a fleet lease in the run store, and who waits (lease release
                        NAME --reason: give up the lease of a holder that is gone)
  validate FILE...      check pipeline files; every problem as FILE:LINE:COL
  plan FILE             the dry run: each call that would be made, secrets masked
  schema                print the pipeline JSON Schema
  matrix FILE           print a step's matrix as JSON for a CI job matrix
  api METHOD PATH       one raw API call, like \`gh api\`
  emulator              serve the embedded emulator of the enterprise API

Options:
  -h, --help            show help (also: enginectl <command> --help)
  -v, --version         print the version

Exit codes: 0 success, 1 a call or step failed, 2 invalid input, 3 a drift audit could
not read a site (plan --live --expect), 69 a shard's worker sent nothing (run the same index
again), 75 parked (run --store: saved to go on with run --continue), 130/143/129 interrupted
(SIGINT/SIGTERM/SIGHUP).
The codes of each error: docs/error-codes.md.
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var h=class{shown={error:0,warning:0};held={error:[],warning:[]};slots={error:8,warning:9};offer(n,e){return this.shown[n]<this.slots[n]?(this.shown[n]++,!0):(this.held[n].push(e),!1)}end(){let n=[];for(let e of["error","warning"]){let o=this.held[e];o.length>0&&n.push({kind:e,count:o.length,only:o.length===1?o[0]:void 0}),this.held[e]=[]}return n}};function j(r,n){return`${n} more ${r}s are not annotated (GitHub shows 10 of a step): ${r==="error"?"see the log":"each is in the log"}`}function U(r){if(!r.annotationsLimited)return{...r,endAnnotations:()=>[]};let n=new h;return{...r,issue(e,o,d){let a=r.issue(e,o,d);return a===void 0||n.offer(e,a)?a:void 0},endAnnotations:()=>n.end().flatMap(e=>e.only??r.issue(e.kind,j(e.kind,e.count))??[])}}var p={run:async()=>(await import("./run-ZJ5KGAFX.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-3J2MEUQ6.mjs")).validateCommand,plan:async()=>(await import("./plan-ZGCIYJUF.mjs")).planCommand,report:async()=>(await import("./report-EXZOCA5H.mjs")).reportCommand,verify:async()=>(await import("./verify-NYJ5PIBF.mjs")).verifyCommand,runs:async()=>(await import("./runs-KDYOLMTZ.mjs")).runsCommand,decide:async()=>(await import("./decide-T4A4ICLL.mjs")).decideCommand,shard:async()=>(await import("./shard-POUXRD75.mjs")).shardCommand,lease:async()=>(await import("./lease-KZ3DEJXQ.mjs")).leaseCommand,schema:async()=>(await import("./schema-WPCD6DWO.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-WDSPKVUK.mjs")).matrixCommand,api:async()=>(await import("./api-XMKOUAUD.mjs")).apiCommand,emulator:async()=>(await import("./emulator-WBZQJUGO.mjs")).emulatorCommand},Z=Object.keys(p);async function _(r,n){let[e,...o]=r,d,a=t=>d??=U(b(n.env,t)),s=[],i={...n,chooseCi:a,pipelineLoaded:(t,m)=>{let c;s.push(()=>c??=L(t,m))},maskerMade:t=>s.push(()=>t)},w=t=>{let m=a(),c=P(t,i,m),y=l=>s.reduce((F,H)=>H().mask(F),c?c(l):l);for(let l of M(t,i,m,y))i.stdout(`${l}
`);return i.stderr(`enginectl: ${v(E(t,y))}
`),t instanceof A&&i.stderr(`  code: ${t.code}
`),T(t)},g;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return i.stdout(`${R}
`),f.ok;if(e==="--version"||e==="-v")return i.stdout(`${u}
`),f.ok;let t=Object.hasOwn(p,e)?p[e]:void 0;if(!t)throw new I("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(p).join(", ")}; see enginectl --help`});g=await t()}catch(t){if(t?.code==="ERR_MODULE_NOT_FOUND")throw t;return w(t)}try{return await g(o,i)}catch(t){return w(t)}finally{for(let t of d?.endAnnotations()??[])i.stdout(`${t}
`)}}function $(r){let n=!1,e;return r.on("error",o=>{n=!0,o.code!=="EPIPE"&&(e??=o.code??o.message)}),{write:o=>{n||r.destroyed||r.write(o)},failed:()=>e}}var D=new Set(["schema","matrix","api","plan"]);async function se(r){let n;try{n=process.cwd()}catch(s){process.stderr.write(`enginectl: the current directory no longer exists (${s.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=O();S(e,s=>process.stderr.write(s));let o=$(process.stdout),d=await _(r,{stdout:o.write,stderr:$(process.stderr).write,stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(s,i)=>C(s,{...i,signal:i?.signal??e.signal}),readStdin:s=>N(process.stdin,{...s,signal:s?.signal??e.signal})});if(e.release(),process.exitCode=e.exitCode(d),x(e,k(),s=>process.stderr.write(s)),!D.has(r[0]??"")||process.exitCode!==0)return;await new Promise(s=>setImmediate(s));let a=o.failed();a!==void 0&&(process.stderr.write(`enginectl: cannot write the output to standard output (${a})
`),process.exitCode=1)}export{se as runMain};
