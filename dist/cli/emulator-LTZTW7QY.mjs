import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{g as m}from"./chunk-XRK43RJP.mjs";import{a as d,b as c,h as f}from"./chunk-6OKBN3ER.mjs";import"./chunk-QT2ATPGP.mjs";import{a as h}from"./chunk-FSWQR6ZN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XXSCVMIQ.mjs";import{a as l}from"./chunk-C7JLFEIX.mjs";import"./chunk-QBTB3T6B.mjs";import{a,c as n}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";var w=`Usage: enginectl emulator [options]

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
  -h, --help                   show this help`,$={port:{type:"string",default:"0"},host:{type:"string",default:"127.0.0.1"},...d,log:{type:"boolean"}};async function b(E,r){let{values:t,positionals:p}=h("emulator",E,$);if(t.help)return r.stdout(`${w}
`),a.ok;if(p.length>0)throw new n("BAD_ARGUMENTS",`emulator: unexpected argument ${p[0]}`,{hint:"see enginectl emulator --help"});if(!/^\d+$/.test(t.port)||Number(t.port)>65535)throw new n("BAD_ARGUMENTS",`--port ${t.port}: not a port number`,{hint:"use 0 to pick a free port"});let g=await f(t,void 0,(e,o)=>{if(!t.log)return;let O=o.requests.push.bind(o.requests),T=e===l?"":`/sites/${e}`;o.requests.push=(...u)=>{for(let s of u)queueMicrotask(()=>r.stderr(`${s.method} ${T}${s.path}${s.fault?` [fault: ${s.fault}]`:""}
`));return O(...u)}}),i;try{i=await m(g,{port:Number(t.port),host:t.host})}catch(e){let o=e.code;throw new n("EMULATOR_LISTEN",`emulator: cannot listen on ${t.host}:${t.port} (${o??e.message})`,{hint:o==="EADDRINUSE"?"the port is taken; choose another or --port 0":"check --host and --port"})}return r.stdout(`listening on ${i.url}
`),await new Promise(e=>{r.signal.aborted&&e(),r.signal.addEventListener("abort",()=>e(),{once:!0})}),await i.close(),a.ok}export{w as EMULATOR_HELP,$ as OPTIONS,b as emulatorCommand};
