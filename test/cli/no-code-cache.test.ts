// Nothing runs that the user did not put there: dist/cli.mjs is the CLI itself. It reads and writes
// nothing in the user's cache directory, so a file planted there (a shared XDG_CACHE_HOME, a CI
// cache restored by key, a self-hosted runner's ~/.cache) is never executed with the run's secrets.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));

test('a planted cache is never read and nothing is written to the cache directory: the run still works', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'enginectl-planted-'));
  t.after(() => chmodSync(home, 0o700));
  const marker = join(home, 'planted-code-ran');
  // A world-writable cache directory with a file in every place an earlier enginectl looked.
  for (const dir of [join(home, '.cache', 'enginectl'), join(home, 'xdg', 'enginectl'), join(home, 'explicit')]) {
    mkdirSync(dir, { recursive: true, mode: 0o777 });
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'cli-planted.v8cache'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`);
  }
  const before = (dir: string) => readdirSync(dir).sort();
  const env = { HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), ENGINECTL_CACHE_DIR: join(home, 'explicit') };
  for (const args of [
    ['validate', DEMO, '--emulator'],
    ['run', DEMO, '--emulator'],
    ['run', DEMO, '--emulator'],
  ]) {
    const r = await runCli(args, { env, cwd: home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  }
  assert.equal(existsSync(marker), false, 'the planted file was not executed');
  for (const dir of [join(home, '.cache', 'enginectl'), join(home, 'xdg', 'enginectl'), join(home, 'explicit')]) {
    assert.deepEqual(before(dir), ['cli-planted.v8cache'], `nothing was written to ${dir}`);
  }
  assert.equal(
    existsSync(join(fileURLToPath(new URL('../../dist/', import.meta.url)), 'cli-main.cjs')),
    false,
    'dist/cli.mjs is the CLI: no second bundle to compile',
  );
});
