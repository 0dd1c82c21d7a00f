import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as r}from"./chunk-GUH6SEHT.mjs";var e="\u200B";function i(t){return r(t).replace(/::/g,`:${e}:`).replace(/##(\s*)(vso|teamcity|\[)/gi,`#${e}#$1$2`).replace(/section_(start|end):/g,`section_${e}$1:`).replace(/^([ \t]*)(---|\+\+\+|\^\^\^)(?=[ \t])/gm,`$1${e}$2`).replace(/^([ \t]*~~~)[ \t]+/gm,"$1")}function c(t,n="    "){return s(i(t),n)}function s(t,n="    "){return t.replace(/\r?\n/g,`
${n}`)}export{i as a,c as b,s as c};
