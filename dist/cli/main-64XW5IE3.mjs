import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as k,b as v}from"./chunk-M5TCRZ2Q.mjs";import"./chunk-GRMCHEMZ.mjs";import{f as O}from"./chunk-VVZRYWGF.mjs";import{c as E}from"./chunk-MSDJP52F.mjs";import"./chunk-UI3MFVVK.mjs";import"./chunk-J3JAVBK2.mjs";import{b as C,c as I}from"./chunk-AKUT4G6C.mjs";import{a as T}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-VFY3BVLA.mjs";import"./chunk-GUH6SEHT.mjs";import{C as u}from"./chunk-BEKTVRNM.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-QBTB3T6B.mjs";import{a as c,b as S,c as N,f as x,g as A}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";function b(o=(n,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(n)}){let n=new AbortController,e,t=s=>{let i=s==="SIGINT"?c.interrupted:s==="SIGHUP"?c.hangup:c.terminated;if(e!==void 0)return o(i,s);e=i,n.abort(new Error(`received ${s}`))};return process.on("SIGINT",t),process.on("SIGTERM",t),process.on("SIGHUP",t),{signal:n.signal,exitCode:s=>s===c.ok||e===void 0?s:e,release:()=>{process.off("SIGINT",t),process.off("SIGTERM",t),process.off("SIGHUP",t)}}}var M=`enginectl ${u}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var h=class{shown={error:0,warning:0};held={error:[],warning:[]};slots={error:8,warning:9};offer(n,e){return this.shown[n]<this.slots[n]?(this.shown[n]++,!0):(this.held[n].push(e),!1)}end(){let n=[];for(let e of["error","warning"]){let t=this.held[e];t.length>0&&n.push({kind:e,count:t.length,only:t.length===1?t[0]:void 0}),this.held[e]=[]}return n}};function _(o,n){return`${n} more ${o}s are not annotated (GitHub shows 10 of a step): ${o==="error"?"see the log":"each is in the log"}`}function P(o){if(!o.annotationsLimited)return{...o,endAnnotations:()=>[]};let n=new h;return{...o,issue(e,t,s){let i=o.issue(e,t,s);return i===void 0||n.offer(e,i)?i:void 0},endAnnotations:()=>n.end().flatMap(e=>e.only??o.issue(e.kind,_(e.kind,e.count))??[])}}var f={run:async()=>(await import("./run-JQBNVTXE.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-CTPHQTSB.mjs")).validateCommand,plan:async()=>(await import("./plan-HPLIP23X.mjs")).planCommand,report:async()=>(await import("./report-YHXZOVHF.mjs")).reportCommand,verify:async()=>(await import("./verify-B6QEM4WU.mjs")).verifyCommand,runs:async()=>(await import("./runs-6ZRKWD45.mjs")).runsCommand,decide:async()=>(await import("./decide-MOVA666E.mjs")).decideCommand,shard:async()=>(await import("./shard-VOBFLC2P.mjs")).shardCommand,lease:async()=>(await import("./lease-AMKGNDXG.mjs")).leaseCommand,schema:async()=>(await import("./schema-HWCVHSFC.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-2KU4DK7J.mjs")).matrixCommand,api:async()=>(await import("./api-NO6KYZKA.mjs")).apiCommand,emulator:async()=>(await import("./emulator-NBBOTFVR.mjs")).emulatorCommand},X=Object.keys(f);async function L(o,n){let[e,...t]=o,s,i=r=>s??=P(E(n.env,r)),a=[],d={...n,chooseCi:i,pipelineLoaded:(r,m)=>{let l;a.push(()=>l??=O(r,m))},maskerMade:r=>a.push(()=>r)},g=r=>{let m=i(),l=v(r,d,m),y=p=>a.reduce((U,$)=>$().mask(U),l?l(p):p);for(let p of k(r,d,m,y))d.stdout(`${p}
`);return d.stderr(`enginectl: ${T(x(r,y))}
`),r instanceof S&&d.stderr(`  code: ${r.code}
`),A(r)},w;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return d.stdout(`${M}
`),c.ok;if(e==="--version"||e==="-v")return d.stdout(`${u}
`),c.ok;let r=Object.hasOwn(f,e)?f[e]:void 0;if(!r)throw new N("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(f).join(", ")}; see enginectl --help`});w=await r()}catch(r){if(r?.code==="ERR_MODULE_NOT_FOUND")throw r;return g(r)}try{return await w(t,d)}catch(r){return g(r)}finally{for(let r of s?.endAnnotations()??[])d.stdout(`${r}
`)}}function R(o){let n=!1,e;return o.on("error",t=>{n=!0,t.code!=="EPIPE"&&(e??=t.code??t.message)}),{write:t=>{n||o.destroyed||o.write(t)},failed:()=>e}}var G=new Set(["schema","matrix","api","plan"]);async function re(o){let n;try{n=process.cwd()}catch(a){process.stderr.write(`enginectl: the current directory no longer exists (${a.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=b(),t=R(process.stdout),s=await L(o,{stdout:t.write,stderr:R(process.stderr).write,stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(a,d)=>C(a,{...d,signal:d?.signal??e.signal}),readStdin:a=>I(process.stdin,{...a,signal:a?.signal??e.signal})});if(e.release(),process.exitCode=e.exitCode(s),!G.has(o[0]??"")||process.exitCode!==0)return;await new Promise(a=>setImmediate(a));let i=t.failed();i!==void 0&&(process.stderr.write(`enginectl: cannot write the output to standard output (${i})
`),process.exitCode=1)}export{re as runMain};
