import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as c,b as d,c as e,d as f,e as g,f as h,g as i,h as j}from"./chunk-34XB4BMR.mjs";import"./chunk-NKS7IU2N.mjs";import{a,b}from"./chunk-C7JLFEIX.mjs";import"./chunk-Q552WKUS.mjs";import"./chunk-RWCXREKJ.mjs";import"./chunk-HDDVMAG4.mjs";export{a as DEFAULT_SITE,h as Emulator,j as Sites,e as loadStateFile,c as parseFault,d as parseState,g as parseUserSpec,f as sampleState,i as serve,b as siteUrl};
