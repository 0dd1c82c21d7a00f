import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a}from"./chunks/chunk-HMAUUTKX.mjs";await a("vfs-update");
