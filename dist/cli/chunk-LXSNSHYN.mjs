import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var o={version:"0.1.0"};var n=o.version,i=`enginectl/${n}`;export{n as a,i as b};
