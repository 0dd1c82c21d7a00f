import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as x}from"./chunk-TDSVENUV.mjs";import"./chunk-ZC4UJPM5.mjs";import{c}from"./chunk-RTLWT6XR.mjs";import{b as u,c as h}from"./chunk-AKUT4G6C.mjs";import{a as y}from"./chunk-B6ZPHE6B.mjs";import"./chunk-HELPYNUO.mjs";import"./chunk-UY2WPAHN.mjs";import{a as d}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as i,b as f,c as g,f as w,g as C}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";function I(a=(n,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(n)}){let n=new AbortController,e,s=r=>{let o=r==="SIGINT"?i.interrupted:i.terminated;if(e!==void 0)return a(o,r);e=o,n.abort(new Error(`received ${r}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:n.signal,exitCode:r=>r===i.ok||e===void 0?r:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var v=`enginectl ${d}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var m={run:async()=>(await import("./run-QQZJGGZP.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-XH5K3PVT.mjs")).validateCommand,plan:async()=>(await import("./plan-77JTGNUP.mjs")).planCommand,report:async()=>(await import("./report-5QZQSQFU.mjs")).reportCommand,verify:async()=>(await import("./verify-QPWVRU2E.mjs")).verifyCommand,runs:async()=>(await import("./runs-GHOQBLJ4.mjs")).runsCommand,decide:async()=>(await import("./decide-5AJFKJZU.mjs")).decideCommand,shard:async()=>(await import("./shard-246H6HJA.mjs")).shardCommand,lease:async()=>(await import("./lease-L7HYNY55.mjs")).leaseCommand,schema:async()=>(await import("./schema-2C7DLHBB.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-7INUAZBI.mjs")).matrixCommand,api:async()=>(await import("./api-7AT3RMFS.mjs")).apiCommand,emulator:async()=>(await import("./emulator-WVEBRV65.mjs")).emulatorCommand},F=Object.keys(m);async function E(a,n){let[e,...s]=a,r,o={...n,chooseCi:t=>r??=c(n.env,t)},l=t=>{for(let S of x(t,o,r??c(o.env)))o.stdout(`${S}
`);return o.stderr(`enginectl: ${y(w(t))}
`),t instanceof f&&o.stderr(`  code: ${t.code}
`),C(t)},p;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return o.stdout(`${v}
`),i.ok;if(e==="--version"||e==="-v")return o.stdout(`${d}
`),i.ok;let t=Object.hasOwn(m,e)?m[e]:void 0;if(!t)throw new g("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(m).join(", ")}; see enginectl --help`});p=await t()}catch(t){if(t?.code==="ERR_MODULE_NOT_FOUND")throw t;return l(t)}try{return await p(s,o)}catch(t){return l(t)}}function N(a){let n=!1;return a.on("error",()=>{n=!0}),e=>{n||a.destroyed||a.write(e)}}async function _(a){let n;try{n=process.cwd()}catch(r){process.stderr.write(`enginectl: the current directory no longer exists (${r.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=I(),s=await E(a,{stdout:N(process.stdout),stderr:N(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:n,signal:e.signal,readFile:(r,o)=>u(r,{...o,signal:o?.signal??e.signal}),readStdin:r=>h(process.stdin,{...r,signal:r?.signal??e.signal})});e.release(),process.exitCode=e.exitCode(s)}export{_ as runMain};
