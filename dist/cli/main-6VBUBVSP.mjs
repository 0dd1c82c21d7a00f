import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as k,b as v}from"./chunk-GDAKJS5O.mjs";import"./chunk-OSTX46VL.mjs";import{f as O}from"./chunk-YK7GKDZB.mjs";import{c as E}from"./chunk-U4GRKTWU.mjs";import"./chunk-EWVEIMS5.mjs";import{b as C,c as N}from"./chunk-AKUT4G6C.mjs";import{a as T}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-ONBKQQX7.mjs";import"./chunk-GUH6SEHT.mjs";import{C as p}from"./chunk-YGWGTYNA.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QBTB3T6B.mjs";import{a as c,b as x,c as A,f as S,g as I}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";function b(o=(n,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(n)}){let n=new AbortController,e,r=i=>{let s=i==="SIGINT"?c.interrupted:c.terminated;if(e!==void 0)return o(s,i);e=s,n.abort(new Error(`received ${i}`))};return process.on("SIGINT",r),process.on("SIGTERM",r),{signal:n.signal,exitCode:i=>i===c.ok||e===void 0?i:e,release:()=>{process.off("SIGINT",r),process.off("SIGTERM",r)}}}var M=`enginectl ${p}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var h=class{shown={error:0,warning:0};held={error:[],warning:[]};slots={error:8,warning:9};offer(n,e){return this.shown[n]<this.slots[n]?(this.shown[n]++,!0):(this.held[n].push(e),!1)}end(){let n=[];for(let e of["error","warning"]){let r=this.held[e];r.length>0&&n.push({kind:e,count:r.length,only:r.length===1?r[0]:void 0}),this.held[e]=[]}return n}};function U(o,n){return`${n} more ${o}s are not annotated (GitHub shows 10 of a step): ${o==="error"?"see the log":"each is in the log"}`}function L(o){if(!o.annotationsLimited)return{...o,endAnnotations:()=>[]};let n=new h;return{...o,issue(e,r,i){let s=o.issue(e,r,i);return s===void 0||n.offer(e,s)?s:void 0},endAnnotations:()=>n.end().flatMap(e=>e.only??o.issue(e.kind,U(e.kind,e.count))??[])}}var f={run:async()=>(await import("./run-SIRAIKBM.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-4DYJZP6G.mjs")).validateCommand,plan:async()=>(await import("./plan-JO7IB7KN.mjs")).planCommand,report:async()=>(await import("./report-IGLPUDGX.mjs")).reportCommand,verify:async()=>(await import("./verify-LJ74DOTE.mjs")).verifyCommand,runs:async()=>(await import("./runs-IMX4FJWY.mjs")).runsCommand,decide:async()=>(await import("./decide-QBXEG5ER.mjs")).decideCommand,shard:async()=>(await import("./shard-ITVBDSLE.mjs")).shardCommand,lease:async()=>(await import("./lease-TKLXK3DY.mjs")).leaseCommand,schema:async()=>(await import("./schema-P6JZOX6U.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-E4OWPZ4D.mjs")).matrixCommand,api:async()=>(await import("./api-G23YGTSG.mjs")).apiCommand,emulator:async()=>(await import("./emulator-HDFG4IMP.mjs")).emulatorCommand},X=Object.keys(f);async function P(o,n){let[e,...r]=o,i,s=t=>i??=L(E(n.env,t)),a=[],d={...n,chooseCi:s,pipelineLoaded:(t,m)=>{let l;a.push(()=>l??=O(t,m))},maskerMade:t=>a.push(()=>t)},g=t=>{let m=s(),l=v(t,d,m),y=u=>a.reduce(($,_)=>_().mask($),l?l(u):u);for(let u of k(t,d,m,y))d.stdout(`${u}
`);return d.stderr(`enginectl: ${T(S(t,y))}
`),t instanceof x&&d.stderr(`  code: ${t.code}
`),I(t)},w;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return d.stdout(`${M}
`),c.ok;if(e==="--version"||e==="-v")return d.stdout(`${p}
`),c.ok;let t=Object.hasOwn(f,e)?f[e]:void 0;if(!t)throw new A("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(f).join(", ")}; see enginectl --help`});w=await t()}catch(t){if(t?.code==="ERR_MODULE_NOT_FOUND")throw t;return g(t)}try{return await w(r,d)}catch(t){return g(t)}finally{for(let t of i?.endAnnotations()??[])d.stdout(`${t}
`)}}function R(o){let n=!1,e;return o.on("error",r=>{n=!0,r.code!=="EPIPE"&&(e??=r.code??r.message)}),{write:r=>{n||o.destroyed||o.write(r)},failed:()=>e}}var F=new Set(["schema","matrix","api","plan"]);async function re(o){let n;try{n=process.cwd()}catch(a){process.stderr.write(`enginectl: the current directory no longer exists (${a.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=b(),r=R(process.stdout),i=await P(o,{stdout:r.write,stderr:R(process.stderr).write,stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(a,d)=>C(a,{...d,signal:d?.signal??e.signal}),readStdin:a=>N(process.stdin,{...a,signal:a?.signal??e.signal})});if(e.release(),process.exitCode=e.exitCode(i),!F.has(o[0]??"")||process.exitCode!==0)return;await new Promise(a=>setImmediate(a));let s=r.failed();s!==void 0&&(process.stderr.write(`enginectl: cannot write the output to standard output (${s})
`),process.exitCode=1)}export{re as runMain};
