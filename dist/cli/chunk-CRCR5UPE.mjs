import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as i}from"./chunk-5S5YKYQC.mjs";function n(e,t){return e.chooseCi?e.chooseCi(t):i(e.env,t)}export{n as a};
