import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{createHmac as e,randomBytes as o}from"node:crypto";function f(){return o(16).toString("hex")}function s(n,r){return`hmac-sha256:${e("sha256",Buffer.from(n,"hex")).update(r).digest("hex")}`}function a(n,r){return s(n,t(r))}function t(n){return Array.isArray(n)?`[${n.map(t).join(",")}]`:n&&typeof n=="object"?`{${Object.keys(n).sort().map(i=>`${JSON.stringify(i)}:${t(n[i])}`).join(",")}}`:JSON.stringify(n??null)}export{f as a,s as b,a as c,t as d};
