import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as r}from"./chunk-UY2WPAHN.mjs";var e="\u200B";function s(t){return r(t).replace(/::/g,`:${e}:`).replace(/##(\s*)(vso|\[)/gi,`#${e}#$1$2`).replace(/section_(start|end):/g,`section_${e}$1:`)}export{s as a};
