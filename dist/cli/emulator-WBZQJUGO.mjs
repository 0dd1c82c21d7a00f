import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{g as d}from"./chunk-34XB4BMR.mjs";import{a as m,b as c,h as f}from"./chunk-F2SJCLZM.mjs";import"./chunk-QT2ATPGP.mjs";import{a as p}from"./chunk-DY4SYJHE.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-NKS7IU2N.mjs";import{a as u}from"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import{a as i,c as s}from"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";var w=`Usage: enginectl emulator [options]

Serves the embedded emulator of the enterprise API (every endpoint, stateful) until stopped
with Ctrl-C or SIGTERM. The first line on stdout is "listening on http://HOST:PORT".
Users: admin/admin (every scope), monitor/monitor (api.monitoring). Each site has a state of its
own at http://HOST:PORT/sites/NAME (the root is the site "default"). docs/emulator.md
describes the sample state, the fault settings and the /_emulator/ control routes.

Options:
  --port N                     port to listen on; 0 (the default) picks a free one
  --host HOST                  address to listen on (default 127.0.0.1)
${c}
  --log                        print one line per request on stderr
  -h, --help                   show this help`,$={port:{type:"string",default:"0"},host:{type:"string",default:"127.0.0.1"},...m,log:{type:"boolean"}};async function b(g,o){let{values:t,positionals:h}=p("emulator",g,$);if(t.help)return o.stdout(`${w}
`),i.ok;if(h.length>0)throw new s("BAD_ARGUMENTS",`emulator: unexpected argument ${h[0]}`,{hint:"see enginectl emulator --help"});if(!/^\d+$/.test(t.port)||Number(t.port)>65535)throw new s("BAD_ARGUMENTS",`--port ${t.port}: not a port number`,{hint:"use 0 to pick a free port"});let E=await f(t,void 0,(e,r)=>{if(!t.log)return;let O=r.requests.push.bind(r.requests),T=e===u?"":`/sites/${e}`;r.requests.push=(...l)=>{for(let n of l)queueMicrotask(()=>o.stderr(`${n.method} ${T}${n.path}${n.fault?` [fault: ${n.fault}]`:""}
`));return O(...l)}}),a;try{a=await d(E,{port:Number(t.port),host:t.host})}catch(e){let r=e.code;throw new s("EMULATOR_LISTEN",`emulator: cannot listen on ${t.host}:${t.port} (${r??e.message})`,{hint:r==="EADDRINUSE"?"the port is taken; choose another or --port 0":"check --host and --port"})}return/^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(t.host)||o.stderr(`enginectl: warning: the emulator listens on ${t.host}: whoever reaches it there can call it as admin/admin and change its state and faults through /_emulator/ (no login)
  hint: drop --host (127.0.0.1) unless another machine must reach it, and then only on a network you trust
`),o.stdout(`listening on ${a.url}
`),await new Promise(e=>{o.signal.aborted&&e(),o.signal.addEventListener("abort",()=>e(),{once:!0})}),await a.close(),i.ok}export{w as EMULATOR_HELP,$ as OPTIONS,b as emulatorCommand};
