import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{f as $,g as D}from"./chunk-JQF5PJ6I.mjs";import{a as S,b as O}from"./chunk-DKFZP6P3.mjs";import{a as N,c as R}from"./chunk-VDV5YBTC.mjs";import{a as g}from"./chunk-AKUT4G6C.mjs";import{a as P}from"./chunk-QSJG675I.mjs";import"./chunk-7G6XRFGQ.mjs";import{f as T,u as b}from"./chunk-D4Y5VCNB.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as w}from"./chunk-QYUEQ7AK.mjs";import"./chunk-ZDNYOOSL.mjs";import"./chunk-C7JLFEIX.mjs";import{b as A}from"./chunk-TR2GVION.mjs";import{a as f,c,e as y}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";async function I(n){let t=new $,e=await D(t,{port:0});try{return await n(e.url,t)}finally{await e.close()}}var v=`Usage: enginectl api METHOD PATH [options]

One raw call to the enterprise API. The server is ENGINE_URL with ENGINE_USERNAME and
ENGINE_PASSWORD, or the embedded emulator with --emulator (as admin/admin unless
ENGINE_USERNAME is set). Prints the response body; JSON is pretty-printed.

Arguments:
  METHOD                GET, POST, PUT, PATCH or DELETE
  PATH                  an API path, e.g. /api/monitoring/v1/engines (a ?query is kept)

Options:
  -d, --data BODY       request body: JSON text, or @FILE, or @- for standard input (16 MiB at most)
  --content-type TYPE   body media type (default application/json; text/plain for a license code)
  -i, --include         print the status line and response headers first
  --timeout DURATION    per-request limit (default 2h), e.g. 30s, 5m
  --ca-file FILE        extra CA certificate (PEM) to trust
  --insecure            skip TLS certificate verification (self-signed test servers only)
  --emulator            start the embedded emulator and call it
  -h, --help            show this help

Exit codes: 0 the server answered 2xx, 1 it did not or could not be reached, 2 invalid input.

Examples:
  enginectl api GET /api/monitoring/v1/engines --emulator
  enginectl api POST /api/devops/v1/update/vfs --data @vfs.json
  enginectl api GET '${A.classes}/classes/22/entities?entidade=3001'`,_=["GET","POST","PUT","PATCH","DELETE"];function M(n,t){let e=t===void 0?`over ${16777216}`:String(t);return new c("BAD_DATA",`--data ${n.startsWith("@")?`${n}: the body`:"the body"} is ${e} bytes; a request body is limited to ${16777216} bytes (16 MiB); nothing was sent`,{hint:"send less in one call (a call per entity, per file), or check that you named the right file"})}async function x(n,t){let e=n.startsWith("@")?await C(n,t):n,i=Buffer.byteLength(e);if(i>16777216)throw M(n,i);return e}async function C(n,t){let e={limit:16777216};try{return await(n==="@-"?t.readStdin(e):t.readFile(n.slice(1),e))}catch(i){let r=n==="@-"?"standard input":"the file",o=y(t.signal,`--data ${n}: reading ${r}`,"nothing was sent");throw o||(i instanceof g?M(n,i.size):new c("BAD_DATA",`--data ${n}: cannot read ${r} (${i.code??i.message})`,{hint:N(n.slice(1),i)}))}}function G(n,t,e,i){if(!t.startsWith("/"))throw new c("BAD_ARGUMENTS",`api: PATH must start with /, got "${t}"`,{hint:"e.g. /api/monitoring/v1/engines"});let r=new URL(t,"http://x"),o={};for(let[p,m]of r.searchParams)o[p]=m;let s={method:n,path:r.pathname,query:Object.keys(o).length?o:void 0};if(e===void 0)return s;let a=i??"application/json";if(a==="application/json"||a.endsWith("+json"))try{s.body={json:JSON.parse(e)}}catch(p){throw new c("BAD_DATA",`--data is not valid JSON: ${p.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else s.body={text:e,contentType:a};return s}function L(n,t,e){e.addLogin(n.username,n.password,"the server password");let i=(r,o="")=>{if(typeof r=="string"&&S.has(o))e.add(r,`--data ${o}`);else if(Array.isArray(r))r.forEach(s=>i(s));else if(r&&typeof r=="object")for(let[s,a]of Object.entries(r))i(a,s)};t.body&&"json"in t.body?i(t.body.json):t.body&&t.path.endsWith("/licenses")&&e.add(t.body.text,"--data")}function B(n,t,e,i){if(e){n.stdout(`HTTP ${t.status}
`);for(let[o,s]of Object.entries(t.headers))n.stdout(`${i.mask(`${o}: ${s}`)}
`);n.stdout(`
`)}if(t.text==="")return;let r=typeof t.body=="string"?i.mask(t.body):JSON.stringify(i.maskValue(t.body),null,2);n.stdout(r.endsWith(`
`)?r:`${r}
`)}var H={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function it(n,t){let{values:e,positionals:i}=P("api",n,H);if(e.help)return t.stdout(`${v}
`),f.ok;if(i.length!==2)throw new c("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${i.length} argument(s)`,{hint:"see enginectl api --help"});let r=i[0].toUpperCase();if(!_.includes(r))throw new c("BAD_ARGUMENTS",`api: unknown method ${i[0]}`,{hint:`use one of ${_.join(", ")}`});let o;if(e.timeout!==void 0&&(o=w(e.timeout),!o))throw new c("BAD_ARGUMENTS",`--timeout ${e.timeout}: not a duration`,{hint:"write 30s, 5m, 2h or 1h30m"});let s=e.data===void 0?void 0:await x(e.data,t),a=G(r,i[1],s,e["content-type"]),p=async(l,U=!1)=>{let u=new O({onWeak:(d,k)=>t.stderr(`enginectl: warning: ${k}
`)});L(U?{url:l.url}:l,a,u);let E=new b({...l,timeoutMs:o,caFile:e["ca-file"],insecureSkipTlsVerify:e.insecure},{env:t.env,redact:d=>u.mask(d)});try{let d=await E.request(a,{signal:t.signal});return B(t,d,e.include??!1,u),d.status>=200&&d.status<300?f.ok:(t.stderr(`enginectl: ${r} ${a.path} answered HTTP ${d.status}${d.text?`: ${T(u.mask(d.text))}`:""}
`),f.failed)}finally{await E.close()}};if(e.emulator)return I(l=>p({url:l,username:t.env.ENGINE_USERNAME??"admin",password:t.env.ENGINE_USERNAME?t.env.ENGINE_PASSWORD:"admin"},!0));let m=R(t.env);if(!m)throw new c("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return p(m)}export{v as API_HELP,H as OPTIONS,it as apiCommand};
