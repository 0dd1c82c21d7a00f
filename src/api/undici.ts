// undici, loaded when the first request is made, not when enginectl starts: `validate`, `plan`
// and `schema` make no call, and loading it (with Node's http, net and tls) was about a quarter
// of their start-up (bench/RESULTS.md). In the bundles it is scripts/undici-lean.mjs.
import type * as Undici from 'undici';

let loaded: Promise<typeof Undici> | undefined;

export function loadUndici(): Promise<typeof Undici> {
  if (!loaded) {
    // undici parses HTTP with a WebAssembly module it compiles at its first connection; V8 then
    // optimises it on a background thread, and a short run waited about 100 ms at exit for that
    // compile (bench/RESULTS.md). The baseline compiler alone is fast enough for HTTP headers.
    process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
    loaded = import('undici');
  }
  return loaded;
}
