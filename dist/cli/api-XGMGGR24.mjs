import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as x}from"./chunk-PFZCSPV4.mjs";import{f as M,g as v}from"./chunk-XRK43RJP.mjs";import{a as $,c as D}from"./chunk-J65YNTBQ.mjs";import{a as T,b as P}from"./chunk-UH32MEYV.mjs";import{a as y}from"./chunk-AKUT4G6C.mjs";import{a as _}from"./chunk-FSWQR6ZN.mjs";import{a as h}from"./chunk-AHG3RS4B.mjs";import"./chunk-7G6XRFGQ.mjs";import"./chunk-GUH6SEHT.mjs";import{E as I,h as R}from"./chunk-EPM37DMS.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-XXSCVMIQ.mjs";import"./chunk-C7JLFEIX.mjs";import{b as O}from"./chunk-QBTB3T6B.mjs";import{a as f,c as l,e as w,h as b,i as A,l as N,n as S}from"./chunk-TJX5YRFO.mjs";import"./chunk-HDDVMAG4.mjs";async function C(n){let t=new M,e=await v(t,{port:0});try{return await n(e.url,t)}finally{await e.close()}}var j=`Usage: enginectl api METHOD PATH [options]

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
  enginectl api GET '${O.classes}/classes/22/entities?entidade=3001'`,k=["GET","POST","PUT","PATCH","DELETE"];function U(n,t){let e=t===void 0?`over ${16777216}`:String(t);return new l("BAD_DATA",`--data ${n.startsWith("@")?`${n}: the body`:"the body"} is ${e} bytes; a request body is limited to ${16777216} bytes (16 MiB); nothing was sent`,{hint:"send less in one call (a call per entity, per file), or check that you named the right file"})}async function B(n,t){let e=n.startsWith("@")?await H(n,t):n,r=Buffer.byteLength(e);if(r>16777216)throw U(n,r);return e}async function H(n,t){let e={limit:16777216};try{return await(n==="@-"?t.readStdin(e):t.readFile(n.slice(1),e))}catch(r){let i=n==="@-"?"standard input":"the file",o=w(t.signal,`--data ${n}: reading ${i}`,"nothing was sent");throw o||(r instanceof y?U(n,r.size):new l("BAD_DATA",`--data ${n}: cannot read ${i} (${r.code??r.message})`,{hint:$(n.slice(1),r)}))}}function q(n,t,e,r){if(!t.startsWith("/"))throw new l("BAD_ARGUMENTS",`api: PATH must start with /, got "${t}"`,{hint:"e.g. /api/monitoring/v1/engines"});let i=new URL(t,"http://x"),o={};for(let[c,m]of i.searchParams)o[c]=m;let s={method:n,path:i.pathname,query:Object.keys(o).length?o:void 0};if(e===void 0)return s;let a=r??"application/json";if(a==="application/json"||a.endsWith("+json"))try{s.body={json:JSON.parse(e)}}catch(c){throw new l("BAD_DATA",`--data is not valid JSON: ${c.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else s.body={text:e,contentType:a};return s}function W(n,t,e){e.addLogin(n.username,n.password,"the server password");let r=(i,o="")=>{if(typeof i=="string"&&T.has(o))e.add(i,`--data ${o}`);else if(Array.isArray(i))i.forEach(s=>r(s));else if(i&&typeof i=="object")for(let[s,a]of Object.entries(i))r(a,s)};t.body&&"json"in t.body?r(t.body.json):t.body&&t.path.endsWith("/licenses")&&e.add(t.body.text,"--data")}function J(n,t,e,r){if(e.include){n.stdout(`HTTP ${t.status}
`);for(let[o,s]of Object.entries(t.headers))n.stdout(`${h(r.mask(`${o}: ${s}`))}
`);n.stdout(`
`)}if(t.text==="")return;let i;if(typeof t.body=="string"){let o=r.mask(t.body);i=e.raw?o:h(o.replace(/\r\n/g,`
`))}else{let o=r.maskValue(t.body);i=e.raw?JSON.stringify(o,null,2):x(o)}n.stdout(i.endsWith(`
`)?i:`${i}
`)}var F={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},raw:{type:"boolean"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function ct(n,t){let{values:e,positionals:r}=_("api",n,F);if(e.help)return t.stdout(`${j}
`),f.ok;if(r.length!==2)throw new l("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${r.length} argument(s)`,{hint:"see enginectl api --help"});let i=r[0].toUpperCase();if(!k.includes(i))throw new l("BAD_ARGUMENTS",`api: unknown method ${r[0]}`,{hint:`use one of ${k.join(", ")}`});let o;if(e.timeout!==void 0&&(o=S(e.timeout),!o||o>b))throw new l("BAD_ARGUMENTS",`--timeout ${N(e.timeout)}: ${o?A:"not a duration"}`,{hint:"write 30s, 5m, 2h or 1h30m"});let s=e.data===void 0?void 0:await B(e.data,t),a=q(i,r[1],s,e["content-type"]),c=async(p,G=!1)=>{let u=new P({onWeak:(d,L)=>t.stderr(`enginectl: warning: ${L}
`)});W(G?{url:p.url}:p,a,u);let g=new I({...p,timeoutMs:o,caFile:e["ca-file"],insecureSkipTlsVerify:e.insecure},{env:t.env,redact:d=>u.mask(d)});try{let d=await g.request(a,{signal:t.signal});return J(t,d,{include:e.include??!1,raw:e.raw??!1},u),d.status>=200&&d.status<300?f.ok:(t.stderr(`enginectl: ${h(`${i} ${a.path} answered HTTP ${d.status}${d.text?`: ${R(u.mask(d.text))}`:""}`)}
`),f.failed)}finally{await g.close()}};if(e.emulator)return C(p=>c({url:p,username:t.env.ENGINE_USERNAME??"admin",password:t.env.ENGINE_USERNAME?t.env.ENGINE_PASSWORD:"admin"},!0));let m=D(t.env);if(!m)throw new l("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return c(m)}export{j as API_HELP,F as OPTIONS,ct as apiCommand};
