import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{c as e}from"./chunk-5QW4XNL2.mjs";function s(t,i){return t.chooseCi?t.chooseCi(i):e(t.env,i)}export{s as a};
