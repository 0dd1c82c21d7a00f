import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var o={ok:0,failed:1,invalidInput:2,unreachable:3,parked:75,unavailable:69,interrupted:130,terminated:143},t=class extends Error{hint;constructor(r,n={}){super(r,n.cause===void 0?void 0:{cause:n.cause}),this.name=new.target.name,this.hint=n.hint}describe(){return this.hint?`${this.message}
  hint: ${this.hint}`:this.message}},i=class extends t{constructor(n,s,a){super(s,a);this.code=n}code;exitCode=o.invalidInput};function d(e){return e instanceof t?e.describe():e instanceof Error?`internal error: ${e.message}`:`internal error: ${String(e)}`}function c(e){return e instanceof t?e.exitCode:o.failed}export{o as a,t as b,i as c,d,c as e};
