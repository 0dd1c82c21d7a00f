import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as g}from"./chunk-TEV4UWSS.mjs";import"./chunk-M3INPAPA.mjs";import{c}from"./chunk-MAVPARPA.mjs";import{a as w}from"./chunk-DJA6MMAV.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-BKT6EBFT.mjs";import{a as d}from"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a,c as u,d as f,e as h}from"./chunk-XMDL3SM2.mjs";import"./chunk-HDDVMAG4.mjs";import{readFile as E}from"node:fs/promises";function C(i=(t,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(t)}){let t=new AbortController,e,s=o=>{let n=o==="SIGINT"?a.interrupted:a.terminated;if(e!==void 0)return i(n,o);e=n,t.abort(new Error(`received ${o}`))};return process.on("SIGINT",s),process.on("SIGTERM",s),{signal:t.signal,exitCode:o=>o===a.ok||e===void 0?o:e,release:()=>{process.off("SIGINT",s),process.off("SIGTERM",s)}}}var y=`enginectl ${d}: deployment pipelines for the enterprise system's HTTP API

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

Exit codes: 0 success, 1 a call or step failed, 2 invalid input, 75 parked (run --store:
saved to go on with run --continue), 130/143 interrupted.
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var m={run:async()=>(await import("./run-IZRWIXLN.mjs")).runPipelineCommand,validate:async()=>(await import("./validate-77GFK6ZW.mjs")).validateCommand,plan:async()=>(await import("./plan-EKWNRLMI.mjs")).planCommand,report:async()=>(await import("./report-Z7RXB274.mjs")).reportCommand,verify:async()=>(await import("./verify-2BLUJPO6.mjs")).verifyCommand,runs:async()=>(await import("./runs-LKJQYOZW.mjs")).runsCommand,decide:async()=>(await import("./decide-OZZT2UAJ.mjs")).decideCommand,lease:async()=>(await import("./lease-TQFIISYR.mjs")).leaseCommand,schema:async()=>(await import("./schema-NH7UJH2T.mjs")).schemaCommand,matrix:async()=>(await import("./matrix-JHK5IZVW.mjs")).matrixCommand,api:async()=>(await import("./api-S2CDA2HG.mjs")).apiCommand,emulator:async()=>(await import("./emulator-G44IMIXE.mjs")).emulatorCommand},R=Object.keys(m);async function x(i,t){let[e,...s]=i,o,n={...t,chooseCi:r=>o??=c(t.env,r)},p=r=>{for(let v of g(r,n,o??c(n.env)))n.stdout(`${v}
`);return n.stderr(`enginectl: ${w(f(r))}
`),h(r)},l;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return n.stdout(`${y}
`),a.ok;if(e==="--version"||e==="-v")return n.stdout(`${d}
`),a.ok;let r=Object.hasOwn(m,e)?m[e]:void 0;if(!r)throw new u("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(m).join(", ")}; see enginectl --help`});l=await r()}catch(r){if(r?.code==="ERR_MODULE_NOT_FOUND")throw r;return p(r)}try{return await l(s,n)}catch(r){return p(r)}}function I(i){let t=!1;return i.on("error",()=>{t=!0}),e=>{t||i.destroyed||i.write(e)}}async function D(i){let t;try{t=process.cwd()}catch(o){process.stderr.write(`enginectl: the current directory no longer exists (${o.code??"gone"}): cd into one that does; nothing was run
`),process.exitCode=2;return}let e=C(),s=await x(i,{stdout:I(process.stdout),stderr:I(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:t,signal:e.signal,readFile:o=>E(o,"utf8"),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});e.release(),process.exitCode=e.exitCode(s)}export{D as runMain};
