import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var t=e=>`\\u${e.charCodeAt(0).toString(16).padStart(4,"0")}`;function u(e,n=2){return JSON.stringify(e,null,n).replace(/::/g,":\\u003a").replace(/##/g,"#\\u0023").replace(/section_(start|end):/g,"section\\u005f$1:").replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,t)}export{u as a};
