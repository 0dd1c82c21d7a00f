import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{f as n,g as i}from"./chunk-CJEM4DKK.mjs";import{a as s}from"./chunk-QXZQ23ZW.mjs";import{k as t}from"./chunk-JXVF6YQN.mjs";import"./chunk-OBO36EAH.mjs";import"./chunk-TR4VRVCM.mjs";import"./chunk-7CXL53PM.mjs";import"./chunk-SSIFJIM6.mjs";import"./chunk-LXSNSHYN.mjs";import"./chunk-PW43Y33T.mjs";import"./chunk-5AIDX52M.mjs";import{a as o}from"./chunk-AI5N4DLN.mjs";import"./chunk-HDDVMAG4.mjs";var a=`Usage: enginectl schema [--report | --inventory]

Prints the JSON Schema of pipeline files. Editors use it through a first line
  # yaml-language-server: $schema=<path or URL of schema/pipeline.schema.json>

Options:
  --report     print the JSON Schema of the run report (run --report-json) instead
  --inventory  print the JSON Schema of inventory files (include:) instead`;async function u(m,r){let{values:e}=s("schema",m,{report:{type:"boolean"},inventory:{type:"boolean"}});if(e.help)return r.stdout(`${a}
`),o.ok;let p=e.report?t():e.inventory?i():n();return r.stdout(`${JSON.stringify(p,null,2)}
`),o.ok}export{a as SCHEMA_HELP,u as schemaCommand};
