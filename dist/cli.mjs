#!/usr/bin/env node
import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as c}from"./cli/chunk-ZKHZABDF.mjs";import"./cli/chunk-IGA4IKHF.mjs";import"./cli/chunk-ZHJZE6KQ.mjs";import"./cli/chunk-RGH6QNTP.mjs";import{a as s}from"./cli/chunk-LXSNSHYN.mjs";import"./cli/chunk-PW43Y33T.mjs";import{a as i,c as d,d as p,e as l}from"./cli/chunk-LDHZQHL4.mjs";import"./cli/chunk-7XDNGLXY.mjs";import{readFile as w}from"node:fs/promises";function u(o=(r,e)=>{process.stderr.write(`enginectl: a second ${e}: exiting now, without waiting for the reports
`),process.exit(r)}){let r=new AbortController,e,n=t=>{let a=t==="SIGINT"?i.interrupted:i.terminated;if(e!==void 0)return o(a,t);e=a,r.abort(new Error(`received ${t}`))};return process.on("SIGINT",n),process.on("SIGTERM",n),{signal:r.signal,exitCode:t=>t===i.ok||e===void 0?t:e,release:()=>{process.off("SIGINT",n),process.off("SIGTERM",n)}}}var f=`enginectl ${s}: deployment pipelines for the enterprise system's HTTP API

Usage: enginectl <command> [options]

Commands:
  run FILE              validate, then run a pipeline (--dry-run, --emulator, --var, --only,
                        --journal F, --resume F)
  report JOURNAL        render the reports of a run from its journal, also of a killed run
  report --merge F...   the reports (or journals) of a fleet's jobs as one report
  verify JOURNAL        read back the targets of a journal's in-doubt calls: applied or not
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
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;var m={run:async()=>(await import("./cli/run-AYPZH3AJ.mjs")).runPipelineCommand,validate:async()=>(await import("./cli/validate-2MXPIDHZ.mjs")).validateCommand,plan:async()=>(await import("./cli/plan-F7MG6KOO.mjs")).planCommand,report:async()=>(await import("./cli/report-A5TKPAVZ.mjs")).reportCommand,verify:async()=>(await import("./cli/verify-BFEWZ7KA.mjs")).verifyCommand,schema:async()=>(await import("./cli/schema-52CLFULB.mjs")).schemaCommand,matrix:async()=>(await import("./cli/matrix-3D22CU3Z.mjs")).matrixCommand,api:async()=>(await import("./cli/api-ITAWKGTA.mjs")).apiCommand,emulator:async()=>(await import("./cli/emulator-DM36RDWP.mjs")).emulatorCommand},E=Object.keys(m);async function g(o,r){let[e,...n]=o;try{if(e===void 0||e==="--help"||e==="-h"||e==="help")return r.stdout(`${f}
`),i.ok;if(e==="--version"||e==="-v")return r.stdout(`${s}
`),i.ok;let t=Object.hasOwn(m,e)?m[e]:void 0;if(!t)throw new d("UNKNOWN_COMMAND",`unknown command "${e}"`,{hint:`commands: ${Object.keys(m).join(", ")}; see enginectl --help`});return await(await t())(n,r)}catch(t){for(let a of c(t,r))r.stdout(`${a}
`);return r.stderr(`enginectl: ${p(t)}
`),l(t)}}function h(o){let r=!1;return o.on("error",()=>{r=!0}),e=>{r||o.destroyed||o.write(e)}}async function C(o){let r=u(),e=await g(o,{stdout:h(process.stdout),stderr:h(process.stderr),stdoutIsTTY:process.stdout.isTTY===!0,env:process.env,cwd:process.cwd(),signal:r.signal,readFile:n=>w(n,"utf8"),readStdin:()=>process.getBuiltinModule("node:stream/consumers").text(process.stdin)});r.release(),process.exitCode=r.exitCode(e)}await C(process.argv.slice(2));
