import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as y}from"./chunk-EGXSE6FR.mjs";import{b as u}from"./chunk-SFBJ47HQ.mjs";import"./chunk-QPHWK2IS.mjs";import{c}from"./chunk-XJSAWOAF.mjs";import{a as C}from"./chunk-G6IUI72E.mjs";import"./chunk-7QNP6ON6.mjs";import"./chunk-FVOHT4EB.mjs";import{a as d}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as i,b as h,c as f,e as w,f as g}from"./chunk-JI3UUNSM.mjs";import"./chunk-HDDVMAG4.mjs";function x(a=(o,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(o)}){let o=new AbortController,e,s=n=>{let t=n==="SIGINT"?i.interrupted:i.terminated;if(e!==void 0)return a(t,n);e=t,o.abort(new Error(`received ${n}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:o.signal,exitCode:n=>n===i.ok||e===void 0?n:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var I=`enginectl ${d}: deployment pipelines for the enterprise system's HTTP API

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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var m={run:async()=>(await import("./run-C6O3ODTX.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-PV5O7UYX.mjs")).validateCommand,plan:async()=>(await import("./plan-GU53Q773.mjs")).planCommand,report:async()=>(await import("./report-CCHUTBAD.mjs")).reportCommand,verify:async()=>(await import("./verify-IZL4WIM5.mjs")).verifyCommand,runs:async()=>(await import("./runs-C4URXBIB.mjs")).runsCommand,decide:async()=>(await import("./decide-WPG3PE4L.mjs")).decideCommand,shard:async()=>(await import("./shard-E3ILJP5V.mjs")).shardCommand,lease:async()=>(await import("./lease-XMF2NLE7.mjs")).leaseCommand,schema:async()=>(await import("./schema-D4KHZ7DM.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-J44DLHLY.mjs")).matrixCommand,api:async()=>(await import("./api-VUQ5TOAO.mjs")).apiCommand,emulator:async()=>(await import("./emulator-JRXCXWF3.mjs")).emulatorCommand},P=Object.keys(m);async function v(a,o){let[e,...s]=a,n,t={...o,chooseCi:r=>n??=c(o.env,r)},l=r=>{for(let N of y(r,t,n??c(t.env)))t.stdout(`${N}
`);return t.stderr(`enginectl: ${C(w(r))}
`),r instanceof h&&t.stderr(`  code: ${r.code}
`),g(r)},p;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return t.stdout(`${I}
`),i.ok;if(e==="--version"||e==="-v")return t.stdout(`${d}
`),i.ok;let r=Object.hasOwn(m,e)?m[e]:void 0;if(!r)throw new f("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(m).join(", ")}; see enginectl --help`});p=await r()}catch(r){if(r?.code==="ERR_MODULE_NOT_FOUND")throw r;return l(r)}try{return await p(s,t)}catch(r){return l(r)}}function E(a){let o=!1;return a.on("error",()=>{o=!0}),e=>{o||a.destroyed||a.write(e)}}async function J(a){let o;try{o=process.cwd()}catch(n){process.stderr.write(`enginectl: the current directory no longer exists (${n.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=x(),s=await v(a,{stdout:E(process.stdout),stderr:E(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:o,signal:e.signal,readFile:(n,t)=>u(n,{...t,signal:t?.signal??e.signal}),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});e.release(),process.exitCode=e.exitCode(s)}export{J as runMain};
