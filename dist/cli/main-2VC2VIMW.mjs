import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as P,b as M}from"./chunk-YUNR2QJW.mjs";import"./chunk-GRMCHEMZ.mjs";import{f as O}from"./chunk-OCI5DGHM.mjs";import{c as k}from"./chunk-MSDJP52F.mjs";import"./chunk-UI3MFVVK.mjs";import"./chunk-J3JAVBK2.mjs";import{b as I,c as N}from"./chunk-AKUT4G6C.mjs";import{a as b}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-FOECKHWR.mjs";import"./chunk-GUH6SEHT.mjs";import{C as u}from"./chunk-BEKTVRNM.mjs";import"./chunk-PW43Y33T.mjs";import{k as h,l as v}from"./chunk-5IHHCYRG.mjs";import"./chunk-QBTB3T6B.mjs";import{a as c,b as x,c as T,f as A,g as E}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";function g(t,n,e,r){let a=t.received();a===void 0||n===0||(t.release(),e(`enginectl: ${n===1?"a call":`${n} calls`} of the run store still held by its file system, which cannot be cancelled${r?`, ${r}`:""}: ending by ${a}
`),process.kill(process.pid,a))}function L(t=(n,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(n)}){let n=new AbortController,e,r,a=s=>{let i=s==="SIGINT"?c.interrupted:s==="SIGHUP"?c.hangup:c.terminated;if(e!==void 0)return t(i,s);e=i,r=s,n.abort(new Error(`received ${s}`))};return process.on("SIGINT",a),process.on("SIGTERM",a),process.on("SIGHUP",a),{signal:n.signal,exitCode:s=>s===c.ok||e===void 0?s:e,received:()=>r,release:()=>{process.off("SIGINT",a),process.off("SIGTERM",a),process.off("SIGHUP",a)}}}var $=`enginectl ${u}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var w=class{shown={error:0,warning:0};held={error:[],warning:[]};slots={error:8,warning:9};offer(n,e){return this.shown[n]<this.slots[n]?(this.shown[n]++,!0):(this.held[n].push(e),!1)}end(){let n=[];for(let e of["error","warning"]){let r=this.held[e];r.length>0&&n.push({kind:e,count:r.length,only:r.length===1?r[0]:void 0}),this.held[e]=[]}return n}};function F(t,n){return`${n} more ${t}s are not annotated (GitHub shows 10 of a step): ${t==="error"?"see the log":"each is in the log"}`}function R(t){if(!t.annotationsLimited)return{...t,endAnnotations:()=>[]};let n=new w;return{...t,issue(e,r,a){let s=t.issue(e,r,a);return s===void 0||n.offer(e,s)?s:void 0},endAnnotations:()=>n.end().flatMap(e=>e.only??t.issue(e.kind,F(e.kind,e.count))??[])}}var f={run:async()=>(await import("./run-2OSD7IQ6.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-CKFURNFI.mjs")).validateCommand,plan:async()=>(await import("./plan-VB4ZSDEB.mjs")).planCommand,report:async()=>(await import("./report-2MUMOCLN.mjs")).reportCommand,verify:async()=>(await import("./verify-X7VZEN7V.mjs")).verifyCommand,runs:async()=>(await import("./runs-S2OR5YWL.mjs")).runsCommand,decide:async()=>(await import("./decide-36FWLCXA.mjs")).decideCommand,shard:async()=>(await import("./shard-O5XC6DVD.mjs")).shardCommand,lease:async()=>(await import("./lease-CII5YIAS.mjs")).leaseCommand,schema:async()=>(await import("./schema-AOEV2GUU.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-XLCGSNZC.mjs")).matrixCommand,api:async()=>(await import("./api-SA6BAAGQ.mjs")).apiCommand,emulator:async()=>(await import("./emulator-AN6VVUEL.mjs")).emulatorCommand},ne=Object.keys(f);async function U(t,n){let[e,...r]=t,a,s=o=>a??=R(k(n.env,o)),i=[],d={...n,chooseCi:s,pipelineLoaded:(o,l)=>{let m;i.push(()=>m??=O(o,l))},maskerMade:o=>i.push(()=>o)},y=o=>{let l=s(),m=M(o,d,l),C=p=>i.reduce((_,G)=>G().mask(_),m?m(p):p);for(let p of P(o,d,l,C))d.stdout(`${p}
`);return d.stderr(`enginectl: ${b(A(o,C))}
`),o instanceof x&&d.stderr(`  code: ${o.code}
`),E(o)},S;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return d.stdout(`${$}
`),c.ok;if(e==="--version"||e==="-v")return d.stdout(`${u}
`),c.ok;let o=Object.hasOwn(f,e)?f[e]:void 0;if(!o)throw new T("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(f).join(", ")}; see enginectl --help`});S=await o()}catch(o){if(o?.code==="ERR_MODULE_NOT_FOUND")throw o;return y(o)}try{return await S(r,d)}catch(o){return y(o)}finally{for(let o of a?.endAnnotations()??[])d.stdout(`${o}
`)}}function H(t){let n=!1,e;return t.on("error",r=>{n=!0,r.code!=="EPIPE"&&(e??=r.code??r.message)}),{write:r=>{n||t.destroyed||t.write(r)},failed:()=>e}}var J=new Set(["schema","matrix","api","plan"]);async function ae(t){let n;try{n=process.cwd()}catch(i){process.stderr.write(`enginectl: the current directory no longer exists (${i.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=L();v(i=>g(e,h(),d=>process.stderr.write(d),`filling Node's thread pool, so nothing more can be written, the reports neither (${i.message})`));let r=H(process.stdout),a=await U(t,{stdout:r.write,stderr:H(process.stderr).write,stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(i,d)=>I(i,{...d,signal:d?.signal??e.signal}),readStdin:i=>N(process.stdin,{...i,signal:i?.signal??e.signal})});if(e.release(),process.exitCode=e.exitCode(a),g(e,h(),i=>process.stderr.write(i)),!J.has(t[0]??"")||process.exitCode!==0)return;await new Promise(i=>setImmediate(i));let s=r.failed();s!==void 0&&(process.stderr.write(`enginectl: cannot write the output to standard output (${s})
`),process.exitCode=1)}export{ae as runMain};
