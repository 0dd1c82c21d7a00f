import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{b as r}from"./chunk-RWCXREKJ.mjs";function i(n,o=!0){let{message:t}=n,s=o&&n instanceof r?n.hint?.replace(/^nothing was run: |; nothing was run$/,""):"";return s?`${t}; ${s}`:t}export{i as a};
