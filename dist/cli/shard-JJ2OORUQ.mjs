import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as S}from"./chunk-DGPIXA56.mjs";import{d as U,e as L}from"./chunk-HPSL7GAG.mjs";import"./chunk-562KH5SE.mjs";import{l as y}from"./chunk-DJEFQJJS.mjs";import"./chunk-2MKHZRSZ.mjs";import"./chunk-3ENFA42D.mjs";import{i as x}from"./chunk-RPQTXEFA.mjs";import"./chunk-SKG6QW7T.mjs";import{j as A,k as I}from"./chunk-RISL7PIP.mjs";import"./chunk-MBXJ5M6H.mjs";import"./chunk-Z4ERL7US.mjs";import"./chunk-NAPQUZNH.mjs";import{d as H}from"./chunk-PUTCW3RF.mjs";import"./chunk-NUYZQMVT.mjs";import"./chunk-AKUT4G6C.mjs";import"./chunk-NMORZQWZ.mjs";import{D as T,r as $,t as R,y as _,z as O}from"./chunk-KOGW3BO4.mjs";import"./chunk-5U5H4LAF.mjs";import{a as F}from"./chunk-FSWQR6ZN.mjs";import{a as N}from"./chunk-B6ZPHE6B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-BTSQROBY.mjs";import"./chunk-PPGT7FDP.mjs";import"./chunk-EOVRJN7U.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-JNHDUUJB.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-R26CQQHO.mjs";import"./chunk-C7JLFEIX.mjs";import"./chunk-QBTB3T6B.mjs";import{a as f,c as i}from"./chunk-TJX5YRFO.mjs";import{e as q}from"./chunk-HDDVMAG4.mjs";var M=q(H(),1);var E=["plain","github","gitlab","k8s"],C=256,w=200,k={done:0,failed:1,invalidInput:2,unavailable:69,parked:75};function P(s,e){let{manifest:t}=e,n=t.shards,o=a=>`${a}/${n}`;switch(s){case"plain":return Array.from({length:n},(a,r)=>`${e.command} --shard ${o(r+1)}`).join(`
`);case"github":{let a=[];for(let r=1;r<=n;r+=C)a.push(Array.from({length:Math.min(C,n-r+1)},(h,m)=>o(r+m)));return[`run=${t.run}`,`shards=${n}`,`chunks=${a.length}`,...a.map((r,h)=>`matrix-${h+1}=${JSON.stringify({shard:r})}`)].join(`
`)}case"gitlab":if(n>w)throw new i("BAD_ARGUMENTS",`shard --format gitlab: GitLab's parallel: runs at most ${w} jobs, not ${n}`,{hint:`--shards ${w} or fewer (--assign queue keeps them busy), or run the workers as a Kubernetes Indexed Job (--format k8s)`});return[`ENGINECTL_RUN=${t.run}`,`ENGINECTL_SHARDS=${n}`].join(`
`);case"k8s":return(0,M.stringify)(J(e))}}function J(s){let{manifest:e}=s;return{apiVersion:"batch/v1",kind:"Job",metadata:{name:`enginectl-${e.run.toLowerCase().replace(/[^a-z0-9-]/g,"-")}`.slice(0,52),labels:{"app.kubernetes.io/name":"enginectl","enginectl/run":e.run.toLowerCase()}},spec:{completionMode:"Indexed",completions:e.shards,parallelism:e.shards,backoffLimitPerIndex:3,podFailurePolicy:{rules:[{action:"FailIndex",onExitCodes:{containerName:"worker",operator:"In",values:[k.failed,k.invalidInput]}},{action:"Ignore",onExitCodes:{containerName:"worker",operator:"In",values:[k.parked]}},{action:"Ignore",onPodConditions:[{type:"DisruptionTarget"}]}]},template:{spec:{restartPolicy:"Never",containers:[{name:"worker",image:s.image,args:[...s.args,"--shard","auto"],env:[{name:"ENGINECTL_STORE",value:s.storeUrl},{name:"ENGINECTL_RUN",value:e.run}]}]}}}}}var X=`Usage: enginectl shard FILE --store URL --shards N [options]

Plans a run of a fleet over N workers (shards) that the CI system or the cluster runs: writes the
run's manifest to the run store (the pipeline's and inventory's hashes, its rollout's waves and
failure budgets, how sites are assigned) and prints how to start the workers. Each worker runs
  enginectl run FILE --store URL --run ID --shard I/N      (or --shard auto)
and the workers keep the rollout's waves and one failure budget across them through the store.

Options:
  --store URL        the run store (file:///PATH a shared directory, or s3://BUCKET/PREFIX; also
                     ${O})
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

Exit codes: 0 planned, 2 invalid input (a pipeline without rollout:, a step outside it).`,V={store:{type:"string"},shards:{type:"string"},assign:{type:"string"},format:{type:"string"},image:{type:"string"},var:{type:"string",multiple:!0}};async function he(s,e){let{values:t,positionals:n}=F("shard",s,V);if(t.help)return e.stdout(`${X}
`),f.ok;if(n.length!==1)throw new i("BAD_ARGUMENTS",`shard: expected one pipeline FILE, got ${n.length}`,{hint:"enginectl shard fleet.yml --store s3://BUCKET/PREFIX --shards 8"});let o=/^\d+$/.test(t.shards??"")?Number(t.shards):NaN;if(t.shards===void 0||!Number.isInteger(o)||o<1||o>1e5)throw new i("BAD_ARGUMENTS",`shard: --shards ${t.shards??"(missing)"}: give how many workers, 1 to 100,000`,{hint:"enginectl shard fleet.yml --store URL --shards 8"});let a=t.assign??"static";if(a!=="static"&&a!=="queue")throw new i("BAD_ARGUMENTS",`shard: --assign ${a}: static or queue`,{hint:"static (the default): a stable hash of each site picks its shard; queue: each worker claims the next site"});let r=t.format??"plain";if(!E.includes(r))throw new i("BAD_ARGUMENTS",`shard: --format ${r}: one of ${E.join(", ")}`);let h=n[0],m=I(t.var),{pipeline:c,sources:D}=await A(h,e,{vars:m}),d=U(c,D,m,e.env),l=T("shard",t.store,e.env,e.cwd,"the manifest and the workers live in a run store: "),p=e.clock??$();await _(l,p.now);let u=R(p.now()),g=L(c,d,{run:u,shards:o,assign:a,at:p.now(),by:y(e.env)});await S(l,u,c,e.env),await x(l,g);let b=["run",h,...(t.var??[]).flatMap(j=>["--var",j])],v=`enginectl ${b.map(G).join(" ")}`,B=r==="k8s"?v:`${v} --store ${G(l.url)} --run ${u}`;return e.stderr(`${N(`run ${u} in ${l.url}: ${d.sites.length} ${d.over}(s) in ${g.waves.length} wave(s) over ${o} shard(s), ${a}`)}
`),e.stdout(`${P(r,{manifest:g,command:B,args:b,storeUrl:l.url,image:t.image??"ghcr.io/enginectl/enginectl"})}
`),f.ok}var G=s=>/^[A-Za-z0-9_./:=@%+-]+$/.test(s)?s:`'${s.replace(/'/g,"'\\''")}'`;export{V as OPTIONS,X as SHARD_HELP,he as shardCommand};
