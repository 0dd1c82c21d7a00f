import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{f as b,g as O}from"./chunk-HHUBFUXQ.mjs";import{b as N}from"./chunk-XP36Q324.mjs";import{a as T,b as A}from"./chunk-UMRMJOOY.mjs";import{a as S}from"./chunk-DDBPXRCH.mjs";import"./chunk-7G6XRFGQ.mjs";import{f as y,u as w}from"./chunk-TYBMTELL.mjs";import"./chunk-FVOHT4EB.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as h}from"./chunk-QYUEQ7AK.mjs";import"./chunk-PKVCKXMO.mjs";import"./chunk-C7JLFEIX.mjs";import{b as g}from"./chunk-5AIDX52M.mjs";import{a as f,c as p}from"./chunk-JI3UUNSM.mjs";import"./chunk-HDDVMAG4.mjs";async function P(n){let e=new b,t=await O(e,{port:0});try{return await n(t.url,e)}finally{await t.close()}}var D=`Usage: enginectl api METHOD PATH [options]

One raw call to the enterprise API. The server is ENGINE_URL with ENGINE_USERNAME and
ENGINE_PASSWORD, or the embedded emulator with --emulator (as admin/admin unless
ENGINE_USERNAME is set). Prints the response body; JSON is pretty-printed.

Arguments:
  METHOD                GET, POST, PUT, PATCH or DELETE
  PATH                  an API path, e.g. /api/monitoring/v1/engines (a ?query is kept)

Options:
  -d, --data BODY       request body: JSON text, or @FILE, or @- for standard input
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
  enginectl api GET '${g.classes}/classes/22/entities?entidade=3001'`,R=["GET","POST","PUT","PATCH","DELETE"];async function $(n,e){if(n==="@-")return e.readStdin();if(n.startsWith("@"))try{return await e.readFile(n.slice(1))}catch(t){throw new p("BAD_DATA",`--data ${n}: cannot read the file (${t.code??t.message})`)}return n}function _(n,e,t,i){if(!e.startsWith("/"))throw new p("BAD_ARGUMENTS",`api: PATH must start with /, got "${e}"`,{hint:"e.g. /api/monitoring/v1/engines"});let r=new URL(e,"http://x"),o={};for(let[l,u]of r.searchParams)o[l]=u;let s={method:n,path:r.pathname,query:Object.keys(o).length?o:void 0};if(t===void 0)return s;let a=i??"application/json";if(a==="application/json"||a.endsWith("+json"))try{s.body={json:JSON.parse(t)}}catch(l){throw new p("BAD_DATA",`--data is not valid JSON: ${l.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else s.body={text:t,contentType:a};return s}function M(n,e,t){t.addLogin(n.username,n.password,"the server password");let i=(r,o="")=>{if(typeof r=="string"&&T.has(o))t.add(r,`--data ${o}`);else if(Array.isArray(r))r.forEach(s=>i(s));else if(r&&typeof r=="object")for(let[s,a]of Object.entries(r))i(a,s)};e.body&&"json"in e.body?i(e.body.json):e.body&&e.path.endsWith("/licenses")&&t.add(e.body.text,"--data")}function G(n,e,t,i){if(t){n.stdout(`HTTP ${e.status}
`);for(let[o,s]of Object.entries(e.headers))n.stdout(`${i.mask(`${o}: ${s}`)}
`);n.stdout(`
`)}if(e.text==="")return;let r=typeof e.body=="string"?i.mask(e.body):JSON.stringify(i.maskValue(e.body),null,2);n.stdout(r.endsWith(`
`)?r:`${r}
`)}var U={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function Y(n,e){let{values:t,positionals:i}=S("api",n,U);if(t.help)return e.stdout(`${D}
`),f.ok;if(i.length!==2)throw new p("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${i.length} argument(s)`,{hint:"see enginectl api --help"});let r=i[0].toUpperCase();if(!R.includes(r))throw new p("BAD_ARGUMENTS",`api: unknown method ${i[0]}`,{hint:`use one of ${R.join(", ")}`});let o;if(t.timeout!==void 0&&(o=h(t.timeout),!o))throw new p("BAD_ARGUMENTS",`--timeout ${t.timeout}: not a duration`,{hint:"write 30s, 5m, 2h or 1h30m"});let s=t.data===void 0?void 0:await $(t.data,e),a=_(r,i[1],s,t["content-type"]),l=async(c,I=!1)=>{let m=new A({onWeak:(d,v)=>e.stderr(`enginectl: warning: ${v}
`)});M(I?{url:c.url}:c,a,m);let E=new w({...c,timeoutMs:o,caFile:t["ca-file"],insecureSkipTlsVerify:t.insecure},{env:e.env,redact:d=>m.mask(d)});try{let d=await E.request(a,{signal:e.signal});return G(e,d,t.include??!1,m),d.status>=200&&d.status<300?f.ok:(e.stderr(`enginectl: ${r} ${a.path} answered HTTP ${d.status}${d.text?`: ${y(m.mask(d.text))}`:""}
`),f.failed)}finally{await E.close()}};if(t.emulator)return P(c=>l({url:c,username:e.env.ENGINE_USERNAME??"admin",password:e.env.ENGINE_USERNAME?e.env.ENGINE_PASSWORD:"admin"},!0));let u=N(e.env);if(!u)throw new p("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return l(u)}export{D as API_HELP,U as OPTIONS,Y as apiCommand};
