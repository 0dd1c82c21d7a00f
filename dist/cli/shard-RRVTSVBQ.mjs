import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{d as U,h as x,i as L}from"./chunk-GT2OHY6H.mjs";import"./chunk-RR3M4PJA.mjs";import{c as H,e as N,f as I}from"./chunk-AQ52GPVN.mjs";import"./chunk-YW3XFM2N.mjs";import"./chunk-FHNND27O.mjs";import{c as T}from"./chunk-VGMBMEFT.mjs";import{f as R}from"./chunk-ZHD4HHLL.mjs";import"./chunk-7ZSVOTAE.mjs";import"./chunk-L77ZE5WO.mjs";import"./chunk-KZDBQLSD.mjs";import"./chunk-W6ITXQKC.mjs";import"./chunk-R5RFSW2F.mjs";import{A as _,B as y,D as F,p as A}from"./chunk-RSBVE6ED.mjs";import{a as O}from"./chunk-L4VCQHX6.mjs";import{a as b}from"./chunk-DJA6MMAV.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-6FJLGLEX.mjs";import"./chunk-RLXVL7QD.mjs";import"./chunk-RBSOY5YP.mjs";import"./chunk-MSFJVINB.mjs";import"./chunk-SP4LZA4E.mjs";import"./chunk-WUGSQBOW.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-VP3LLZ6O.mjs";import"./chunk-QYUEQ7AK.mjs";import"./chunk-F2F24H5K.mjs";import"./chunk-5AIDX52M.mjs";import{a as g,c as i}from"./chunk-NTAOO2Y5.mjs";import{e as j}from"./chunk-HDDVMAG4.mjs";var S=j(H(),1);var k=["plain","github","gitlab","k8s"],C=256,f=200,w={done:0,failed:1,invalidInput:2,unavailable:69,parked:75};function M(r,e){let{manifest:t}=e,n=t.shards,o=a=>`${a}/${n}`;switch(r){case"plain":return Array.from({length:n},(a,s)=>`${e.command} --shard ${o(s+1)}`).join(`
`);case"github":{let a=[];for(let s=1;s<=n;s+=C)a.push(Array.from({length:Math.min(C,n-s+1)},(l,h)=>o(s+h)));return[`run=${t.run}`,`shards=${n}`,`chunks=${a.length}`,...a.map((s,l)=>`matrix-${l+1}=${JSON.stringify({shard:s})}`)].join(`
`)}case"gitlab":if(n>f)throw new i("BAD_ARGUMENTS",`shard --format gitlab: GitLab's parallel: runs at most ${f} jobs, not ${n}`,{hint:`--shards ${f} or fewer (--assign queue keeps them busy), or run the workers as a Kubernetes Indexed Job (--format k8s)`});return[`ENGINECTL_RUN=${t.run}`,`ENGINECTL_SHARDS=${n}`].join(`
`);case"k8s":return(0,S.stringify)(J(e))}}function J(r){let{manifest:e}=r;return{apiVersion:"batch/v1",kind:"Job",metadata:{name:`enginectl-${e.run.toLowerCase().replace(/[^a-z0-9-]/g,"-")}`.slice(0,52),labels:{"app.kubernetes.io/name":"enginectl","enginectl/run":e.run.toLowerCase()}},spec:{completionMode:"Indexed",completions:e.shards,parallelism:e.shards,backoffLimitPerIndex:3,podFailurePolicy:{rules:[{action:"FailIndex",onExitCodes:{containerName:"worker",operator:"In",values:[w.failed,w.invalidInput]}},{action:"Ignore",onExitCodes:{containerName:"worker",operator:"In",values:[w.parked]}},{action:"Ignore",onPodConditions:[{type:"DisruptionTarget"}]}]},template:{spec:{restartPolicy:"Never",containers:[{name:"worker",image:r.image,args:[...q(r.command).slice(1),"--shard","auto"],env:[{name:"ENGINECTL_STORE",value:r.storeUrl},{name:"ENGINECTL_RUN",value:e.run}]}]}}}}}var q=r=>r.split(/\s+/).filter(Boolean);var X=`Usage: enginectl shard FILE --store URL --shards N [options]

Plans a run of a fleet over N workers (shards) that the CI system or the cluster runs: writes the
run's manifest to the run store (the pipeline's and inventory's hashes, its rollout's waves and
failure budgets, how sites are assigned) and prints how to start the workers. Each worker runs
  enginectl run FILE --store URL --run ID --shard I/N      (or --shard auto)
and the workers keep the rollout's waves and one failure budget across them through the store.

Options:
  --store URL        the run store (file:///PATH a shared directory, or s3://BUCKET/PREFIX; also
                     ${y})
  --shards N         how many workers
  --assign static|queue
                     static (default): a stable hash of each site picks its shard, so a retried
                     shard runs the same sites; queue: each worker claims the next site of the wave
                     (shards finish together when sites take uneven time)
  --format plain|github|gitlab|k8s
                     plain (default): a worker's command line per shard; github: job outputs
                     (run, shards, chunks, matrix-1.. of at most 256 jobs each); gitlab: dotenv
                     lines (ENGINECTL_RUN, ENGINECTL_SHARDS) for a parallel: N job; k8s: an
                     Indexed Job manifest (--image)
  --image REF        with --format k8s: the worker's image (default: ghcr.io/enginectl/enginectl)
  --var NAME=VALUE   override a var, as each worker will be given it (repeatable)
  -h, --help         show this help

Exit codes: 0 planned, 2 invalid input (a pipeline without rollout:, a step outside it).`;async function ie(r,e){let{values:t,positionals:n}=O("shard",r,{store:{type:"string"},shards:{type:"string"},assign:{type:"string"},format:{type:"string"},image:{type:"string"},var:{type:"string",multiple:!0}});if(t.help)return e.stdout(`${X}
`),g.ok;if(n.length!==1)throw new i("BAD_ARGUMENTS",`shard: expected one pipeline FILE, got ${n.length}`,{hint:"enginectl shard fleet.yml --store s3://BUCKET/PREFIX --shards 8"});let o=Number(t.shards);if(t.shards===void 0||!Number.isInteger(o)||o<1||o>1e5)throw new i("BAD_ARGUMENTS",`shard: --shards ${t.shards??"(missing)"}: give how many workers, 1 or more`,{hint:"enginectl shard fleet.yml --store URL --shards 8"});let a=t.assign??"static";if(a!=="static"&&a!=="queue")throw new i("BAD_ARGUMENTS",`shard: --assign ${a}: static or queue`);let s=t.format??"plain";if(!k.includes(s))throw new i("BAD_ARGUMENTS",`shard: --format ${s}: one of ${k.join(", ")}`);let l=n[0],h=I(t.var),{pipeline:$,sources:G}=await N(l,e,{vars:h}),u=x($,G,h,e.env),m=F("shard",t.store,e.env,e.cwd,"the manifest and the workers live in a run store: "),c=e.clock??T();await _(m,c.now);let d=A(c.now()),p=L($,u,{run:d,shards:o,assign:a,at:c.now(),by:R(e.env)});await U(m,p);let B=(t.var??[]).map(P=>` --var ${E(P)}`).join(""),v=`enginectl run ${E(l)}${B}`,D=s==="k8s"?v:`${v} --store ${E(m.url)} --run ${d}`;return e.stderr(`${b(`run ${d} in ${m.url}: ${u.sites.length} ${u.over}(s) in ${p.waves.length} wave(s) over ${o} shard(s), ${a}`)}
`),e.stdout(`${M(s,{manifest:p,command:D,storeUrl:m.url,image:t.image??"ghcr.io/enginectl/enginectl"})}
`),g.ok}var E=r=>/^[A-Za-z0-9_./:=@%+-]+$/.test(r)?r:`'${r.replace(/'/g,"'\\''")}'`;export{X as SHARD_HELP,ie as shardCommand};
