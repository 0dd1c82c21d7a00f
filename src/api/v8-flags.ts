// The V8 flags a run that calls a server sets, in one place: api/undici.ts sets them before undici
// compiles its WebAssembly HTTP parser, and dist/cli.mjs sets them before it compiles the CLI for
// the commands that call a server, since V8 takes a code cache only under the flags it was made
// with (src/cli/code-cache.ts). Two copies that drifted apart would make every such cache refused.

/**
 * undici parses HTTP with a WebAssembly module it compiles at its first connection; V8 then
 * optimises it on a background thread, and a short run waited about 100 ms at exit for that
 * compile (bench/RESULTS.md). The baseline compiler alone is fast enough for HTTP headers.
 */
export function setServerCallFlags(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}
