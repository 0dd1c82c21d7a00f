import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as i}from"./chunk-RTLWT6XR.mjs";function s(t,e){return t.chooseCi?t.chooseCi(e):i(t.env,e)}export{s as a};
