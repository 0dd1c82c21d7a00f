import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as t}from"./chunk-GUH6SEHT.mjs";var e="\u200B";function n(r){return t(r).replace(/::/g,`:${e}:`).replace(/##(\s*)(vso|teamcity|\[)/gi,`#${e}#$1$2`).replace(/section_(start|end):/g,`section_${e}$1:`).replace(/^([ \t]*)(---|\+\+\+|\^\^\^)(?=[ \t])/gm,`$1${e}$2`).replace(/^([ \t]*~~~)[ \t]+/gm,"$1")}export{n as a};
