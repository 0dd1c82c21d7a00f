// dist/cli.mjs loads each command's code from dist/cli/ beside it. A copy without that directory
// (the CLI copied as one file, as it was until 2026-11-26), or with another build's chunks (a new
// dist/cli.mjs copied over an old checkout's dist/cli/), or with a file missing, is told for what
// it is: the missing file named, what to copy, exit 2 before anything runs, never Node's stack.
// So is a start in a directory that was removed.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI, runCliProcess } from '../helpers/cli.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));
const CHUNKS = join(dirname(CLI), 'cli');

/** A copy of the CLI in a directory of its own: dist/cli.mjs, and the chunks `keep` keeps. */
function copy(keep: (chunk: string) => boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-copy-'));
  cpSync(CLI, join(dir, 'cli.mjs'));
  for (const chunk of readdirSync(CHUNKS).filter(keep)) cpSync(join(CHUNKS, chunk), join(dir, 'cli', chunk));
  return dir;
}

function assertIncomplete(
  r: { code: number | null; stdout: string; stderr: string },
  dir: string,
  missing: RegExp,
): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  const [first, hint, ...rest] = r.stderr.trimEnd().split('\n');
  assert.match(
    first!,
    new RegExp(
      `^enginectl: ${join(dir, 'cli').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${missing.source} is missing: this copy of enginectl is incomplete; nothing was run$`,
    ),
  );
  assert.equal(
    hint,
    '  hint: dist/cli.mjs loads its code from the cli/ directory beside it: copy the two together (or install the npm package, which holds both)',
  );
  assert.deepEqual(rest, [], 'one message, no stack trace');
}

test('dist/cli.mjs copied alone says which file is missing and what to copy: exit 2, no stack trace', async (t) => {
  const dir = copy(() => false);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const args of [['--version'], ['validate', DEMO], ['run', DEMO, '--emulator']]) {
    assertIncomplete(
      await runCliProcess(args, { command: [process.execPath, join(dir, 'cli.mjs')] }),
      dir,
      /[\w-]+\.mjs/,
    );
  }
});

test("a copy missing one command's chunk runs the others and says so for that command", async (t) => {
  const dir = copy((chunk) => !chunk.startsWith('validate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const command = [process.execPath, join(dir, 'cli.mjs')];
  const version = await runCliProcess(['--version'], { command });
  assert.equal(version.code, 0, version.stderr);
  assertIncomplete(await runCliProcess(['validate', DEMO], { command }), dir, /validate-[\w]+\.mjs/);
  const matrix = await runCliProcess(['matrix', DEMO], { command });
  assert.equal(matrix.code, 0, matrix.stderr);
});

test('started in a directory that no longer exists, the CLI says so: exit 2, no stack trace', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gone-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gone = join(dir, 'gone');
  mkdirSync(gone);
  const run = await runCliProcess(['validate', DEMO], {
    command: [
      'sh',
      '-c',
      `cd ${JSON.stringify(gone)} && rmdir ${JSON.stringify(gone)} && exec "$0" "$@"`,
      process.execPath,
      CLI,
    ],
  });
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr,
    'enginectl: the current directory no longer exists (ENOENT): cd into one that does; nothing was run\n',
  );
});
