import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as C}from"./chunk-HITRGMRS.mjs";import"./chunk-CMZPDPRM.mjs";import{c}from"./chunk-2ZGDXXYN.mjs";import{a as g}from"./chunk-G6IUI72E.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-FVOHT4EB.mjs";import{a as d}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as i,b as u,c as h,d as f,e as w}from"./chunk-NTAOO2Y5.mjs";import"./chunk-HDDVMAG4.mjs";import{readFile as N}from"node:fs/promises";function y(a=(t,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(t)}){let t=new AbortController,e,s=o=>{let n=o==="SIGINT"?i.interrupted:i.terminated;if(e!==void 0)return a(n,o);e=n,t.abort(new Error(`received ${o}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:t.signal,exitCode:o=>o===i.ok||e===void 0?o:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var x=`enginectl ${d}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var m={run:async()=>(await import("./run-VGSXLYDC.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-H3NBAPUW.mjs")).validateCommand,plan:async()=>(await import("./plan-3CGACH3R.mjs")).planCommand,report:async()=>(await import("./report-IX6VGQ4M.mjs")).reportCommand,verify:async()=>(await import("./verify-5ZYGPFWR.mjs")).verifyCommand,runs:async()=>(await import("./runs-FQKBBWSW.mjs")).runsCommand,decide:async()=>(await import("./decide-E7PDZ5SM.mjs")).decideCommand,shard:async()=>(await import("./shard-256Z3EJC.mjs")).shardCommand,lease:async()=>(await import("./lease-7XHF6KLL.mjs")).leaseCommand,schema:async()=>(await import("./schema-SLQGKYPI.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-ZUXJUKTI.mjs")).matrixCommand,api:async()=>(await import("./api-VVSXHJHR.mjs")).apiCommand,emulator:async()=>(await import("./emulator-VUOQYGLY.mjs")).emulatorCommand},P=Object.keys(m);async function I(a,t){let[e,...s]=a,o,n={...t,chooseCi:r=>o??=c(t.env,r)},p=r=>{for(let E of C(r,n,o??c(n.env)))n.stdout(`${E}
`);return n.stderr(`enginectl: ${g(f(r))}
`),r instanceof u&&n.stderr(`  code: ${r.code} (exit ${r.exitCode})
`),w(r)},l;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return n.stdout(`${x}
`),i.ok;if(e==="--version"||e==="-v")return n.stdout(`${d}
`),i.ok;let r=Object.hasOwn(m,e)?m[e]:void 0;if(!r)throw new h("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(m).join(", ")}; see enginectl --help`});l=await r()}catch(r){if(r?.code==="ERR_MODULE_NOT_FOUND")throw r;return p(r)}try{return await l(s,n)}catch(r){return p(r)}}function v(a){let t=!1;return a.on("error",()=>{t=!0}),e=>{t||a.destroyed||a.write(e)}}async function J(a){let t;try{t=process.cwd()}catch(o){process.stderr.write(`enginectl: the current directory no longer exists (${o.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=y(),s=await I(a,{stdout:v(process.stdout),stderr:v(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:t,signal:e.signal,readFile:o=>N(o,"utf8"),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});e.release(),process.exitCode=e.exitCode(s)}export{J as runMain};
