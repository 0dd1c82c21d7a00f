import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var e=t=>/^[A-Za-z0-9_./:=@%+-]+$/.test(t)?t:`'${t.replace(/'/g,"'\\''")}'`;export{e as a};
