import { createRequire as __enginectlCreateRequire } from 'node:module';
const require = __enginectlCreateRequire(import.meta.url);
import{a as i}from"./chunks/chunk-OA5VHT3X.mjs";await i("enginectl");
