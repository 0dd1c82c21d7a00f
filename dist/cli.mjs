#!/usr/bin/env node
import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{fileURLToPath as t}from"node:url";function o(n){let{code:e,url:i}=n??{};if(e==="ERR_MODULE_NOT_FOUND")return typeof i=="string"&&i.startsWith("file:")?t(i):/Cannot find module '([^']+)'/.exec(String(n.message))?.[1]??"a file"}try{let{runMain:n}=await import("./cli/main-3MHUL3XR.mjs");await n(process.argv.slice(2))}catch(n){let e=o(n);if(e===void 0)throw n;process.stderr.write(`enginectl: ${e} is missing: this copy of enginectl is incomplete; nothing was run
  hint: dist/cli.mjs loads its code from the cli/ directory beside it: copy the two together (or install the npm package, which holds both)
`),process.exitCode=2}
