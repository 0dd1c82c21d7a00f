import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as C}from"./chunk-6SKLLEBO.mjs";import"./chunk-AVUFOG3Q.mjs";import{c}from"./chunk-5QW4XNL2.mjs";import{a as g}from"./chunk-DJA6MMAV.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-SSIFJIM6.mjs";import{a as m}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a,c as u,d as f,e as h}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";import{readFile as E}from"node:fs/promises";function w(i=(t,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(t)}){let t=new AbortController,e,s=o=>{let n=o==="SIGINT"?a.interrupted:a.terminated;if(e!==void 0)return i(n,o);e=n,t.abort(new Error(`received ${o}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:t.signal,exitCode:o=>o===a.ok||e===void 0?o:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var y=`enginectl ${m}: deployment pipelines for the enterprise system's HTTP API

Usage: enginectl <command> [options]

Commands:
  run FILE              validate, then run a pipeline (--dry-run, --emulator, --var, --only,
                        --journal F, --resume F)
  report JOURNAL        render the reports of a run from its journal, also of a killed run
  report --merge F...   the reports (or journals) of a fleet's jobs as one report
  verify JOURNAL        read back the targets of a journal's in-doubt calls: applied or not
  runs --store URL      the runs a run store holds (run --store URL): resume, report or verify one
                        from any machine by its id (report --store URL --run ID)
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

Exit codes: 0 success, 1 a call or step failed, 2 invalid input, 130/143 interrupted.
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var d={run:async()=>(await import("./run-TLCYUM5G.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-OU6NCCIF.mjs")).validateCommand,plan:async()=>(await import("./plan-3XSGHQUS.mjs")).planCommand,report:async()=>(await import("./report-ZEZDS2BY.mjs")).reportCommand,verify:async()=>(await import("./verify-EIXWK7TG.mjs")).verifyCommand,runs:async()=>(await import("./runs-Q5AGZXQJ.mjs")).runsCommand,lease:async()=>(await import("./lease-CGWZB3LQ.mjs")).leaseCommand,schema:async()=>(await import("./schema-HJXYMVGO.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-KEHCOLOX.mjs")).matrixCommand,api:async()=>(await import("./api-4PTDZPBG.mjs")).apiCommand,emulator:async()=>(await import("./emulator-6CEVHKN2.mjs")).emulatorCommand},R=Object.keys(d);async function x(i,t){let[e,...s]=i,o,n={...t,chooseCi:r=>o??=c(t.env,r)},l=r=>{for(let S of C(r,n,o??c(n.env)))n.stdout(`${S}
`);return n.stderr(`enginectl: ${g(f(r))}
`),h(r)},p;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return n.stdout(`${y}
`),a.ok;if(e==="--version"||e==="-v")return n.stdout(`${m}
`),a.ok;let r=Object.hasOwn(d,e)?d[e]:void 0;if(!r)throw new u("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(d).join(", ")}; see enginectl --help`});p=await r()}catch(r){if(r?.code==="ERR_MODULE_NOT_FOUND")throw r;return l(r)}try{return await p(s,n)}catch(r){return l(r)}}function I(i){let t=!1;return i.on("error",()=>{t=!0}),e=>{t||i.destroyed||i.write(e)}}async function D(i){let t;try{t=process.cwd()}catch(o){process.stderr.write(`enginectl: the current directory no longer exists (${o.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=w(),s=await x(i,{stdout:I(process.stdout),stderr:I(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:t,signal:e.signal,readFile:o=>E(o,"utf8"),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});e.release(),process.exitCode=e.exitCode(s)}export{D as runMain};
