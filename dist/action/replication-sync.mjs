import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i}from"./chunks/chunk-PETB5UEO.mjs";await i("replication-sync");
