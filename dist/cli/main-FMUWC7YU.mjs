import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as k,b as v}from"./chunk-EM2N6OBB.mjs";import"./chunk-2MKHZRSZ.mjs";import{f as O}from"./chunk-NAPQUZNH.mjs";import{c as E}from"./chunk-PUTCW3RF.mjs";import"./chunk-NUYZQMVT.mjs";import{b as C,c as A}from"./chunk-AKUT4G6C.mjs";import{a as I}from"./chunk-B6ZPHE6B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-EOVRJN7U.mjs";import"./chunk-UY2WPAHN.mjs";import{A as p}from"./chunk-JNHDUUJB.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QBTB3T6B.mjs";import{a as d,b as N,c as S,f as T,g as x}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";function b(r=(n,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(n)}){let n=new AbortController,e,s=o=>{let i=o==="SIGINT"?d.interrupted:d.terminated;if(e!==void 0)return r(i,o);e=i,n.abort(new Error(`received ${o}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:n.signal,exitCode:o=>o===d.ok||e===void 0?o:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var M=`enginectl ${p}: deployment pipelines for the enterprise system's HTTP API

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
again), 75 parked (run --store: saved to go on with run --continue), 130/143 interrupted.
The codes of each error: docs/error-codes.md.
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var h=class{shown={error:0,warning:0};held={error:[],warning:[]};slots={error:8,warning:9};offer(n,e){return this.shown[n]<this.slots[n]?(this.shown[n]++,!0):(this.held[n].push(e),!1)}end(){let n=[];for(let e of["error","warning"]){let s=this.held[e];s.length>0&&n.push({kind:e,count:s.length,only:s.length===1?s[0]:void 0}),this.held[e]=[]}return n}};function U(r,n){return`${n} more ${r}s are not annotated (GitHub shows 10 of a step): ${r==="error"?"see the log":"each is in the log"}`}function L(r){if(!r.annotationsLimited)return{...r,endAnnotations:()=>[]};let n=new h;return{...r,issue(e,s,o){let i=r.issue(e,s,o);return i===void 0||n.offer(e,i)?i:void 0},endAnnotations:()=>n.end().flatMap(e=>e.only??r.issue(e.kind,U(e.kind,e.count))??[])}}var u={run:async()=>(await import("./run-XVJLRCP2.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-GXXLO57D.mjs")).validateCommand,plan:async()=>(await import("./plan-VCI3QUO3.mjs")).planCommand,report:async()=>(await import("./report-33Y5XLMW.mjs")).reportCommand,verify:async()=>(await import("./verify-GHICFH4A.mjs")).verifyCommand,runs:async()=>(await import("./runs-MZZRNZJ7.mjs")).runsCommand,decide:async()=>(await import("./decide-ANNTYVB2.mjs")).decideCommand,shard:async()=>(await import("./shard-JJ2OORUQ.mjs")).shardCommand,lease:async()=>(await import("./lease-MMOVSOYT.mjs")).leaseCommand,schema:async()=>(await import("./schema-JBBJ7DMX.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-CXAXSGQA.mjs")).matrixCommand,api:async()=>(await import("./api-KHANYJ5G.mjs")).apiCommand,emulator:async()=>(await import("./emulator-NA6SC34Q.mjs")).emulatorCommand},Q=Object.keys(u);async function R(r,n){let[e,...s]=r,o,i=t=>o??=L(E(n.env,t)),f=[],a={...n,chooseCi:i,pipelineLoaded:(t,m)=>{let c;f.push(()=>c??=O(t,m))},maskerMade:t=>f.push(()=>t)},g=t=>{let m=i(),c=v(t,a,m),y=l=>f.reduce(($,_)=>_().mask($),c?c(l):l);for(let l of k(t,a,m,y))a.stdout(`${l}
`);return a.stderr(`enginectl: ${I(T(t,y))}
`),t instanceof N&&a.stderr(`  code: ${t.code}
`),x(t)},w;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return a.stdout(`${M}
`),d.ok;if(e==="--version"||e==="-v")return a.stdout(`${p}
`),d.ok;let t=Object.hasOwn(u,e)?u[e]:void 0;if(!t)throw new S("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(u).join(", ")}; see enginectl --help`});w=await t()}catch(t){if(t?.code==="ERR_MODULE_NOT_FOUND")throw t;return g(t)}try{return await w(s,a)}catch(t){return g(t)}finally{for(let t of o?.endAnnotations()??[])a.stdout(`${t}
`)}}function P(r){let n=!1;return r.on("error",()=>{n=!0}),e=>{n||r.destroyed||r.write(e)}}async function te(r){let n;try{n=process.cwd()}catch(o){process.stderr.write(`enginectl: the current directory no longer exists (${o.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=b(),s=await R(r,{stdout:P(process.stdout),stderr:P(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(o,i)=>C(o,{...i,signal:i?.signal??e.signal}),readStdin:o=>A(process.stdin,{...o,signal:o?.signal??e.signal})});e.release(),process.exitCode=e.exitCode(s)}export{te as runMain};
