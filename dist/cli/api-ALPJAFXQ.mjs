import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as L}from"./chunk-PFZCSPV4.mjs";import{f as C,g as G}from"./chunk-XRK43RJP.mjs";import{a as M,c as x}from"./chunk-EQ424H2C.mjs";import{a as T,b as k}from"./chunk-IL56V4FV.mjs";import{a as b}from"./chunk-AKUT4G6C.mjs";import{a as U}from"./chunk-FSWQR6ZN.mjs";import{a as u}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import{F as D,G as _,g as w,h as $,j as P,l as I}from"./chunk-C6ZE6NTO.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XXSCVMIQ.mjs";import"./chunk-C7JLFEIX.mjs";import{b as O}from"./chunk-QBTB3T6B.mjs";import{a as m,c as d,e as A,h as R,i as v,l as N,n as S}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";async function j(n){let t=new C,e=await G(t,{port:0});try{return await n(e.url,t)}finally{await e.close()}}function Y(n){let t=n.split("?")[0];if(/[\t\n\r]|[\u0000-\u0020]$/.test(n)||/[\u0000-\u0020\u007f]/.test(t))return"holds a space or a control character, which a URL parser drops or encodes: write it %-encoded (%20 for a space)";if(t.startsWith("//"))return"starts with //, which names a host: the server of ENGINE_URL would be called on another path";if(n.includes("#"))return"holds a #: a fragment is never sent";if(t.includes("\\"))return"holds a backslash, which a URL reads as /";if(D(t))return"holds a . or .. segment (or %2e): it would be resolved away, and another path called"}function q(n){let t=Y(n);if(t)throw new d("BAD_ARGUMENTS",`api: PATH ${JSON.stringify(n)} ${t}; nothing was sent`,{hint:"write the path as the server is to read it, e.g. /api/monitoring/v1/engines (a ?query is kept)"})}function E(n,t,e){if(n==="GET")return;let r;if(e instanceof w)r={sent:!0,status:e.status,error:e.code};else if(e&&typeof e=="object"&&"status"in e){let i=e;r={sent:!0,status:i.status,api:I(i.status,i.contentType,i.text)}}else return;if(P(n,t,r)==="unknown")return`enginectl: ${u(`${n} ${t}`)}: the request may have reached the server, and the server may have applied it (no answer of the API says it did or did not)
  hint: check on the server whether the change was made before sending it again
`}function B(n,t){return e=>{throw!(e instanceof w)||!E(n,t,e)||/may have applied it/.test(`${e.message} ${e.hint??""}`)?e:new w(e.code,e.message,{method:e.method,path:e.path,status:e.status,body:e.body,attempts:e.attempts,server:e.server,cause:e,hint:`the request may have reached the server, and the server may have applied it: check on the server whether the change was made before sending it again${e.hint?`; ${e.hint}`:""}`})}}var V=`Usage: enginectl api METHOD PATH [options]

One raw call to the enterprise API. The server is ENGINE_URL with ENGINE_USERNAME and
ENGINE_PASSWORD, or the embedded emulator with --emulator (as admin/admin unless
ENGINE_USERNAME is set). Prints the response body; JSON is pretty-printed, its strings written
so that no CI log or terminal acts on them and they parse to the server's exact values (for jq);
a text body is shown inert (CI commands broken, control characters made visible) unless --raw.

Arguments:
  METHOD                GET, POST, PUT, PATCH or DELETE
  PATH                  an API path, e.g. /api/monitoring/v1/engines (a ?query is kept)

Options:
  -d, --data BODY       request body: JSON text, or @FILE, or @- for standard input (16 MiB at most)
  --content-type TYPE   body media type (default application/json; text/plain for a license code)
  -i, --include         print the status line and response headers first
  --raw                 the body not made inert (secrets still masked): text as the server
                        sent it, JSON without the escapes; for a file or a pipe, not a CI log
  --timeout DURATION    per-request limit (default 2h), e.g. 30s, 5m
  --ca-file FILE        extra CA certificate (PEM) to trust
  --insecure            skip TLS certificate verification (self-signed test servers only)
  --emulator            start the embedded emulator and call it
  -h, --help            show this help

Exit codes: 0 the server answered 2xx, 1 it did not or could not be reached, 2 invalid input.

Examples:
  enginectl api GET /api/monitoring/v1/engines --emulator
  enginectl api POST /api/devops/v1/update/vfs --data @vfs.json
  enginectl api GET '${O.classes}/classes/22/entities?entidade=3001'`,H=["GET","POST","PUT","PATCH","DELETE"];function W(n,t){let e=t===void 0?`over ${16777216}`:String(t);return new d("BAD_DATA",`--data ${n.startsWith("@")?`${n}: the body`:"the body"} is ${e} bytes; a request body is limited to ${16777216} bytes (16 MiB); nothing was sent`,{hint:"send less in one call (a call per entity, per file), or check that you named the right file"})}async function X(n,t){let e=n.startsWith("@")?await z(n,t):n,r=Buffer.byteLength(e);if(r>16777216)throw W(n,r);return e}async function z(n,t){let e={limit:16777216};try{return await(n==="@-"?t.readStdin(e):t.readFile(n.slice(1),e))}catch(r){let i=n==="@-"?"standard input":"the file",s=A(t.signal,`--data ${n}: reading ${i}`,"nothing was sent");throw s||(r instanceof b?W(n,r.size):new d("BAD_DATA",`--data ${n}: cannot read ${i} (${r.code??r.message})`,{hint:M(n.slice(1),r)}))}}function Q(n,t,e,r){if(!t.startsWith("/"))throw new d("BAD_ARGUMENTS",`api: PATH must start with /, got "${t}"`,{hint:"e.g. /api/monitoring/v1/engines"});q(t);let i=new URL(t,"http://x"),s={};for(let[p,l]of i.searchParams)s[p]=l;let o={method:n,path:i.pathname,query:Object.keys(s).length?s:void 0};if(e===void 0)return o;let a=r??"application/json";if(a==="application/json"||a.endsWith("+json"))try{o.body={json:JSON.parse(e)}}catch(p){throw new d("BAD_DATA",`--data is not valid JSON: ${p.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else o.body={text:e,contentType:a};return o}function K(n,t,e){e.addLogin(n.username,n.password,"the server password");let r=(i,s="")=>{if(typeof i=="string"&&T.has(s))e.add(i,`--data ${s}`);else if(Array.isArray(i))i.forEach(o=>r(o));else if(i&&typeof i=="object")for(let[o,a]of Object.entries(i))r(a,o)};t.body&&"json"in t.body?r(t.body.json):t.body&&t.path.endsWith("/licenses")&&e.add(t.body.text,"--data")}function Z(n,t,e,r){if(e.include){n.stdout(`HTTP ${t.status}
`);for(let[s,o]of Object.entries(t.headers))n.stdout(`${u(r.mask(`${s}: ${o}`))}
`);n.stdout(`
`)}if(t.text==="")return;let i;if(typeof t.body=="string"){let s=r.mask(t.body);i=e.raw?s:u(s.replace(/\r\n/g,`
`))}else{let s=r.maskValue(t.body);i=e.raw?JSON.stringify(s,null,2):L(s)}n.stdout(i.endsWith(`
`)?i:`${i}
`)}var ee={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},raw:{type:"boolean"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function $e(n,t){let{values:e,positionals:r}=U("api",n,ee);if(e.help)return t.stdout(`${V}
`),m.ok;if(r.length!==2)throw new d("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${r.length} argument(s)`,{hint:"see enginectl api --help"});let i=r[0].toUpperCase();if(!H.includes(i))throw new d("BAD_ARGUMENTS",`api: unknown method ${r[0]}`,{hint:`use one of ${H.join(", ")}`});let s;if(e.timeout!==void 0&&(s=S(e.timeout),!s||s>R))throw new d("BAD_ARGUMENTS",`--timeout ${N(e.timeout)}: ${s?v:"not a duration"}`,{hint:"write 30s, 5m, 2h or 1h30m"});let o=e.data===void 0?void 0:await X(e.data,t),a=Q(i,r[1],o,e["content-type"]),p=async(h,J=!1)=>{let f=new k({onWeak:(c,F)=>t.stderr(`enginectl: warning: ${F}
`)});K(J?{url:h.url}:h,a,f);let y=new _({...h,timeoutMs:s,caFile:e["ca-file"],insecureSkipTlsVerify:e.insecure},{env:t.env,redact:c=>f.mask(c)});try{let c=await y.request(a,{signal:t.signal}).catch(B(i,a.path));return Z(t,c,{include:e.include??!1,raw:e.raw??!1},f),c.status>=200&&c.status<300?m.ok:(t.stderr(`enginectl: ${u(`${i} ${a.path} answered HTTP ${c.status}${c.text?`: ${$(f.mask(c.text))}`:""}`)}
`),t.stderr(E(i,a.path,c)??""),m.failed)}finally{await y.close()}};if(e.emulator)return j(h=>p({url:h,username:t.env.ENGINE_USERNAME??"admin",password:t.env.ENGINE_USERNAME?t.env.ENGINE_PASSWORD:"admin"},!0));let l=x(t.env);if(!l)throw new d("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return p(l)}export{V as API_HELP,ee as OPTIONS,$e as apiCommand};
