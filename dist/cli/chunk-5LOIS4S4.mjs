import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
var e=new Set(["targetAuthToken","targetPassword","sourceAuthToken","sourcePassword","token","password"]);export{e as a};
