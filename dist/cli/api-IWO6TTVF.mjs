import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{f as O,g as P}from"./chunk-K2NLHLSV.mjs";import{a as A,c as b}from"./chunk-7AOWMPWM.mjs";import{a as N,b as S}from"./chunk-H76BLFXS.mjs";import{a as R}from"./chunk-QSJG675I.mjs";import"./chunk-7G6XRFGQ.mjs";import{f as y,u as T}from"./chunk-LZLXTYYJ.mjs";import"./chunk-UY2WPAHN.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import{a as g}from"./chunk-QYUEQ7AK.mjs";import"./chunk-ZDNYOOSL.mjs";import"./chunk-C7JLFEIX.mjs";import{b as w}from"./chunk-5AIDX52M.mjs";import{a as f,c as p,e as h}from"./chunk-FNEGLNLQ.mjs";import"./chunk-HDDVMAG4.mjs";async function $(n){let t=new O,e=await P(t,{port:0});try{return await n(e.url,t)}finally{await e.close()}}var v=`Usage: enginectl api METHOD PATH [options]

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
  enginectl api GET '${w.classes}/classes/22/entities?entidade=3001'`,I=["GET","POST","PUT","PATCH","DELETE"];async function M(n,t){if(!n.startsWith("@"))return n;try{return await(n==="@-"?t.readStdin():t.readFile(n.slice(1)))}catch(e){let i=n==="@-"?"standard input":"the file",r=h(t.signal,`--data ${n}: reading ${i}`,"nothing was sent");throw r||new p("BAD_DATA",`--data ${n}: cannot read ${i} (${e.code??e.message})`,{hint:A(n.slice(1),e)})}}function G(n,t,e,i){if(!t.startsWith("/"))throw new p("BAD_ARGUMENTS",`api: PATH must start with /, got "${t}"`,{hint:"e.g. /api/monitoring/v1/engines"});let r=new URL(t,"http://x"),o={};for(let[c,u]of r.searchParams)o[c]=u;let s={method:n,path:r.pathname,query:Object.keys(o).length?o:void 0};if(e===void 0)return s;let a=i??"application/json";if(a==="application/json"||a.endsWith("+json"))try{s.body={json:JSON.parse(e)}}catch(c){throw new p("BAD_DATA",`--data is not valid JSON: ${c.message}`,{hint:"quote the JSON for your shell, or pass --content-type for another body type"})}else s.body={text:e,contentType:a};return s}function U(n,t,e){e.addLogin(n.username,n.password,"the server password");let i=(r,o="")=>{if(typeof r=="string"&&N.has(o))e.add(r,`--data ${o}`);else if(Array.isArray(r))r.forEach(s=>i(s));else if(r&&typeof r=="object")for(let[s,a]of Object.entries(r))i(a,s)};t.body&&"json"in t.body?i(t.body.json):t.body&&t.path.endsWith("/licenses")&&e.add(t.body.text,"--data")}function k(n,t,e,i){if(e){n.stdout(`HTTP ${t.status}
`);for(let[o,s]of Object.entries(t.headers))n.stdout(`${i.mask(`${o}: ${s}`)}
`);n.stdout(`
`)}if(t.text==="")return;let r=typeof t.body=="string"?i.mask(t.body):JSON.stringify(i.maskValue(t.body),null,2);n.stdout(r.endsWith(`
`)?r:`${r}
`)}var x={data:{type:"string",short:"d"},"content-type":{type:"string"},include:{type:"boolean",short:"i"},timeout:{type:"string"},"ca-file":{type:"string"},insecure:{type:"boolean"},emulator:{type:"boolean"}};async function Q(n,t){let{values:e,positionals:i}=R("api",n,x);if(e.help)return t.stdout(`${v}
`),f.ok;if(i.length!==2)throw new p("BAD_ARGUMENTS",`api: expected METHOD and PATH, got ${i.length} argument(s)`,{hint:"see enginectl api --help"});let r=i[0].toUpperCase();if(!I.includes(r))throw new p("BAD_ARGUMENTS",`api: unknown method ${i[0]}`,{hint:`use one of ${I.join(", ")}`});let o;if(e.timeout!==void 0&&(o=g(e.timeout),!o))throw new p("BAD_ARGUMENTS",`--timeout ${e.timeout}: not a duration`,{hint:"write 30s, 5m, 2h or 1h30m"});let s=e.data===void 0?void 0:await M(e.data,t),a=G(r,i[1],s,e["content-type"]),c=async(l,D=!1)=>{let m=new S({onWeak:(d,_)=>t.stderr(`enginectl: warning: ${_}
`)});U(D?{url:l.url}:l,a,m);let E=new T({...l,timeoutMs:o,caFile:e["ca-file"],insecureSkipTlsVerify:e.insecure},{env:t.env,redact:d=>m.mask(d)});try{let d=await E.request(a,{signal:t.signal});return k(t,d,e.include??!1,m),d.status>=200&&d.status<300?f.ok:(t.stderr(`enginectl: ${r} ${a.path} answered HTTP ${d.status}${d.text?`: ${y(m.mask(d.text))}`:""}
`),f.failed)}finally{await E.close()}};if(e.emulator)return $(l=>c({url:l,username:t.env.ENGINE_USERNAME??"admin",password:t.env.ENGINE_USERNAME?t.env.ENGINE_PASSWORD:"admin"},!0));let u=b(t.env);if(!u)throw new p("NO_SERVER","api: no server to call",{hint:"set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator"});return c(u)}export{v as API_HELP,x as OPTIONS,Q as apiCommand};
