// undici, loaded when the first request is made, not when enginectl starts: `validate`, `plan`
// and `schema` make no call, and loading it (with Node's http, net and tls) was about a quarter
// of their start-up (bench/RESULTS.md). In the bundles it is scripts/undici-lean.mjs.
import type * as Undici from 'undici';
import { setServerCallFlags } from './v8-flags.ts';

let loaded: Promise<typeof Undici> | undefined;

export function loadUndici(): Promise<typeof Undici> {
  if (!loaded) {
    // Before the module is compiled, and only by runs that call a server.
    setServerCallFlags();
    loaded = import('undici');
  }
  return loaded;
}
