// `npm test`: every test file under test/, three at a time, each in its own process, with the
// temporary files of the whole run under one directory of its own (TMPDIR), removed at the end:
// a run leaves nothing behind in the machine's temporary directory. Arguments narrow the files
// (`npm test -- test/cli`). No test waits on the clock for what it checks (a limit runs out when
// the test fires it); a test that hangs fails after 10 minutes instead of holding the suite.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.test.ts') ? [path] : [];
  });
const roots = process.argv.slice(2);
const tests = (roots.length ? roots : ['test']).flatMap((r) => (statSync(r).isDirectory() ? files(r) : [r])).sort();
const root = mkdtempSync(join(tmpdir(), 'enginectl-tests-'));
// Open to other users as /tmp is: a test runs the CLI as another user (an unreadable file).
chmodSync(root, 0o755);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=600000', '--test-reporter=spec', ...tests],
  {
    stdio: 'inherit',
    env: { ...process.env, TMPDIR: root, TMP: root, TEMP: root },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  rmSync(root, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 1 : 0);
});
