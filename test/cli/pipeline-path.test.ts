// A pipeline path that is no plain file: a device that never ends (/dev/zero) is read up to the
// 1 MiB limit and refused with the limit's message. The CLI runs as a process, from the source: the
// reading is the process edge's (main.ts), and a hang is killed, not waited on.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../helpers/cli.ts';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

/** The CLI from the source as a process; killed (code null) if it has not ended a minute on. */
function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    env: cleanEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(hung), resolve({ code, stderr }))));
}

test(
  'a pipeline path of /dev/zero is read up to the 1 MiB limit and refused with it (exit 2), not read until memory runs out',
  { skip: !existsSync('/dev/zero') },
  async () => {
    const r = await cli(['validate', '/dev/zero']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^\/dev\/zero:1:1 the file is over 1048576 bytes; pipelines are limited to 1048576 bytes \(1 MiB\)\n/,
    );
    assert.doesNotMatch(r.stderr, /Invalid string length|\n\s+at /);
  },
);
