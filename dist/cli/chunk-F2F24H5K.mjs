import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var e="default";function o(t,n){return n===e?t:`${t}/sites/${encodeURIComponent(n)}`}export{e as a,o as b};
