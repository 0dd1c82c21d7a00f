import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a}from"./chunks/chunk-R5DB76MQ.mjs";await a("vfs-update");
