import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as G}from"./chunk-PFZCSPV4.mjs";import{f as U,g as C}from"./chunk-XRK43RJP.mjs";import{a as D,c as M}from"./chunk-XA36P54M.mjs";import{a as T,b as k}from"./chunk-IL56V4FV.mjs";import{a as b}from"./chunk-AKUT4G6C.mjs";import{a as x}from"./chunk-FSWQR6ZN.mjs";import{a as u}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import{F as _,g as w,h as $,j as P,l as I}from"./chunk-EAAJ53KT.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XXSCVMIQ.mjs";import"./chunk-C7JLFEIX.mjs";import{b as O}from"./chunk-QBTB3T6B.mjs";import{a as m,c as d,e as A,h as N,i as R,l as S,n as v}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";async function L(n){let e=new U,t=await C(e,{port:0});try{return await n(t.url,e)}finally{await t.close()}}function F(n){let e=n.split("?")[0];if(e.startsWith("//"))return"starts with //, which names a host: the server of ENGINE_URL would be called on another path";if(n.includes("#"))return"holds a #: a fragment is never sent";if(e.includes("\\"))return"holds a backslash, which a URL reads as /";if(e.split("/").some(t=>/^(\.|%2e){1,2}$/i.test(t)))return"holds a . or .. segment (or %2e): it would be resolved away, and another path called"}function j(n){let e=F(n);if(e)throw new d("BAD_ARGUMENTS",`api: PATH ${JSON.stringify(n)} ${e}; nothing was sent`,{hint:"write the path as the server is to read it, e.g. /api/monitoring/v1/engines (a ?query is kept)"})}function E(n,e,t){if(n==="GET")return;let r;if(t instanceof w)r={sent:!0,status:t.status,error:t.code};else if(t&&typeof t=="object"&&"status"in t){let i=t;r={sent:!0,status:i.status,api:I(i.status,i.contentType,i.text)}}else return;if(P(n,e,r)==="unknown")return`enginectl: ${u(`${n} ${e}`)}: the request was sent, and the server may have applied it (no answer of the API says it did or did not)
  hint: check on the server whether the change was made before sending it again
`}function q(n,e){return t=>{throw!(t instanceof w)||!E(n,e,t)?t:new w(t.code,t.message,{method:t.method,path:t.path,status:t.status,body:t.body,attempts:t.attempts,server:t.server,cause:t,hint:`the request was sent, and the server may have applied it: check on the server whether the change was made before sending it again${t.hint?`; ${t.hint}`:""}`})}}var Y=`Usage: enginectl api METHOD PATH [options]

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
  enginectl api GET '${O.classes}/classes/22/entities?entidade=3001'`,B=["GET","POST","PUT","PATCH","DELETE"];function H(n,e){let t=e===void 0?`over ${16777216}`:String(e);return new d("BAD_DATA",`--data ${n.startsWith("@")?`${n}: the body`:"the body"} is ${t} bytes; a request body is limited to ${16777216} bytes (16 MiB); nothing was sent`,{hint:"send less in one call (a call per entity, per file), or check that you named the right file"})}async function V(n,e){let t=n.startsWith("@")?await X(n,e):n,r=Buffer.byteLength(t);if(r>16777216)throw H(n,r);return t}async function X(n,e){let t={limit:16777216};try{return await(n==="@-"?e.readStdin(t):e.readFile(n.slice(1),t))}catch(r){let i=n==="@-"?"standard input":"the file",s=A(e.signal,`--data ${n}: reading ${i}`,"nothing was sent");throw s||(r instanceof b?H(n,r.size):new d("BAD_DATA",`--data ${n}: cannot read ${i} (${r.code??r.message})`,{hint:D(n.slice(1),r)}))}}function z(n,e,t,r){if(!e.startsWith("/"))throw new d("BAD_ARGUMENTS",`api: PATH must start with /, got "${e}"`,{hint:"e.g. /api/monitoring/v1/engines"});j(e);let i=new URL(e,"http://x"),s={};for(let[p,h]of i.searchParams)s[p]=h;let o={method:n,path:i.pathname,query:Object.keys(s).length?s:void 0};if(t===void 0)return o;let a=r??"application/json";if(a==="application/json"||a.endsWith("+json"))try{o.body={json:JSON.parse(t)}}catch(p){throw new d("BAD_DATA",`--data is not valid JSON: ${p.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else o.body={text:t,contentType:a};return o}function Q(n,e,t){t.addLogin(n.username,n.password,"the server password");let r=(i,s="")=>{if(typeof i=="string"&&T.has(s))t.add(i,`--data ${s}`);else if(Array.isArray(i))i.forEach(o=>r(o));else if(i&&typeof i=="object")for(let[o,a]of Object.entries(i))r(a,o)};e.body&&"json"in e.body?r(e.body.json):e.body&&e.path.endsWith("/licenses")&&t.add(e.body.text,"--data")}function K(n,e,t,r){if(t.include){n.stdout(`HTTP ${e.status}
`);for(let[s,o]of Object.entries(e.headers))n.stdout(`${u(r.mask(`${s}: ${o}`))}
`);n.stdout(`
`)}if(e.text==="")return;let i;if(typeof e.body=="string"){let s=r.mask(e.body);i=t.raw?s:u(s.replace(/\r\n/g,`
`))}else{let s=r.maskValue(e.body);i=t.raw?JSON.stringify(s,null,2):G(s)}n.stdout(i.endsWith(`
`)?i:`${i}
`)}var Z={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},raw:{type:"boolean"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function St(n,e){let{values:t,positionals:r}=x("api",n,Z);if(t.help)return e.stdout(`${Y}
`),m.ok;if(r.length!==2)throw new d("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${r.length} argument(s)`,{hint:"see enginectl api --help"});let i=r[0].toUpperCase();if(!B.includes(i))throw new d("BAD_ARGUMENTS",`api: unknown method ${r[0]}`,{hint:`use one of ${B.join(", ")}`});let s;if(t.timeout!==void 0&&(s=v(t.timeout),!s||s>N))throw new d("BAD_ARGUMENTS",`--timeout ${S(t.timeout)}: ${s?R:"not a duration"}`,{hint:"write 30s, 5m, 2h or 1h30m"});let o=t.data===void 0?void 0:await V(t.data,e),a=z(i,r[1],o,t["content-type"]),p=async(l,W=!1)=>{let f=new k({onWeak:(c,J)=>e.stderr(`enginectl: warning: ${J}
`)});Q(W?{url:l.url}:l,a,f);let y=new _({...l,timeoutMs:s,caFile:t["ca-file"],insecureSkipTlsVerify:t.insecure},{env:e.env,redact:c=>f.mask(c)});try{let c=await y.request(a,{signal:e.signal}).catch(q(i,a.path));return K(e,c,{include:t.include??!1,raw:t.raw??!1},f),c.status>=200&&c.status<300?m.ok:(e.stderr(`enginectl: ${u(`${i} ${a.path} answered HTTP ${c.status}${c.text?`: ${$(f.mask(c.text))}`:""}`)}
`),e.stderr(E(i,a.path,c)??""),m.failed)}finally{await y.close()}};if(t.emulator)return L(l=>p({url:l,username:e.env.ENGINE_USERNAME??"admin",password:e.env.ENGINE_USERNAME?e.env.ENGINE_PASSWORD:"admin"},!0));let h=M(e.env);if(!h)throw new d("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return p(h)}export{Y as API_HELP,Z as OPTIONS,St as apiCommand};
