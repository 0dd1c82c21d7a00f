import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as u}from"./chunk-NXN3HG5N.mjs";import"./chunk-LA2JWRGE.mjs";import{a as p}from"./chunk-DJA6MMAV.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-SSIFJIM6.mjs";import{a as i}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a,c as m,d as l,e as c}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";import{readFile as y}from"node:fs/promises";function f(t=(r,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(r)}){let r=new AbortController,e,s=o=>{let n=o==="SIGINT"?a.interrupted:a.terminated;if(e!==void 0)return t(n,o);e=n,r.abort(new Error(`received ${o}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:r.signal,exitCode:o=>o===a.ok||e===void 0?o:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var h=`enginectl ${i}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var d={run:async()=>(await import("./run-RMUURPNH.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-EFHXC37S.mjs")).validateCommand,plan:async()=>(await import("./plan-MT7FP3PH.mjs")).planCommand,report:async()=>(await import("./report-ZWN4N7AD.mjs")).reportCommand,verify:async()=>(await import("./verify-E43OGADY.mjs")).verifyCommand,runs:async()=>(await import("./runs-BAXFMJNN.mjs")).runsCommand,lease:async()=>(await import("./lease-VUU3A3F4.mjs")).leaseCommand,schema:async()=>(await import("./schema-QWXKIDUZ.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-N5WLJHT6.mjs")).matrixCommand,api:async()=>(await import("./api-2MDYLHIE.mjs")).apiCommand,emulator:async()=>(await import("./emulator-D5CBLM2D.mjs")).emulatorCommand},A=Object.keys(d);async function w(t,r){let[e,...s]=t,o;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return r.stdout(`${h}
`),a.ok;if(e==="--version"||e==="-v")return r.stdout(`${i}
`),a.ok;let n=Object.hasOwn(d,e)?d[e]:void 0;if(!n)throw new m("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(d).join(", ")}; see enginectl --help`});o=await n()}catch(n){if(n?.code==="ERR_MODULE_NOT_FOUND")throw n;return g(n,r)}try{return await o(s,r)}catch(n){return g(n,r)}}function g(t,r){for(let e of u(t,r))r.stdout(`${e}
`);return r.stderr(`enginectl: ${p(l(t))}
`),c(t)}function C(t){let r=!1;return t.on("error",()=>{r=!0}),e=>{r||t.destroyed||t.write(e)}}async function R(t){let r;try{r=process.cwd()}catch(o){process.stderr.write(`enginectl: the current directory no longer exists (${o.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=f(),s=await w(t,{stdout:C(process.stdout),stderr:C(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:r,signal:e.signal,readFile:o=>y(o,"utf8"),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});e.release(),process.exitCode=e.exitCode(s)}export{R as runMain};
