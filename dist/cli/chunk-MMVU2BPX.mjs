import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{createHmac as i,createSecretKey as s}from"node:crypto";var g=`enginectl saved plan: server fingerprints
`,r;function p({key:e,salt:n}){return(r?.key!==e||r.salt!==n)&&(r={key:e,salt:n,derived:s(i("sha256",e).update(g).update(n).digest())}),r.derived}function t(e,n){return`hmac-sha256:${i("sha256",p(e)).update(n).digest("hex")}`}function a(e,n){return t(e,`server
${n}`)}function d(e){return t(e,`key
`)}function u(e,n){return t(e,`pins
${n}`)}export{a,d as b,u as c};
