// The CLI on a GitHub runner makes no more annotations than GitHub shows of a step (10 errors, 10
// warnings; the rest are dropped unsaid): the first of each kind, then one that counts the others,
// a slot kept for the runner's own "exit code" error. Every finding and failure is still in the
// log. An invalid pipeline of hundreds of findings (validate), and a run of dozens of failed
// instances, through the CLI's entry function.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const dir = mkdtempSync(join(tmpdir(), 'enginectl-annotations-'));
const lines = (stdout: string, kind: string) => stdout.split('\n').filter((l) => l.startsWith(`::${kind}`));

test('validate of 300 findings on GitHub: 8 error annotations and one that counts the other 292; stderr lists every finding', async () => {
  const file = join(dir, 'invalid.yml');
  const steps = Array.from({ length: 300 }, (_, i) => `  - { uses: nope/x${i} }`).join('\n');
  writeFileSync(file, `version: 1\nsteps:\n${steps}\n`);
  const r = await runCli(['validate', file, '--ci', 'github']);
  assert.equal(r.code, 2);
  const errors = lines(r.stdout, 'error');
  assert.equal(errors.length, 9, errors.join('\n'));
  assert.match(
    errors.at(-1)!,
    /^::error::292 more errors are not annotated \(GitHub shows 10 of a step\): see the log$/,
  );
  assert.equal((r.stderr.match(/unknown step type/g) ?? []).length, 300, 'every finding is on stderr');
});

test('a run of 30 failed instances and 30 that failed with continue-on-error, on GitHub: at most 9 error and 10 warning annotations, the others counted, every one in the log', async (t) => {
  const { url } = await startEmulator(t);
  const file = join(dir, 'failing.yml');
  const matrix = `matrix: { n: [${Array.from({ length: 30 }, (_, i) => i).join(', ')}] }`;
  writeFileSync(
    file,
    `version: 1
servers:
  main: { url: "${url}", username: admin, password: admin }
steps:
  - name: Let pass \${{ matrix.n }}
    uses: api/request
    continue-on-error: true
    ${matrix}
    with: { path: "/api/nope/\${{ matrix.n }}" }
  - name: Fail \${{ matrix.n }}
    uses: api/request
    fail-fast: false
    ${matrix}
    with: { path: "/api/nope/\${{ matrix.n }}" }
`,
  );
  const r = await runCli(['run', file, '--ci', 'github']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const errors = lines(r.stdout, 'error');
  const warnings = lines(r.stdout, 'warning');
  assert.equal(errors.length, 9, errors.join('\n'));
  assert.match(errors.at(-1)!, /^::error::22 more errors are not annotated/);
  assert.equal(warnings.length, 10, warnings.join('\n'));
  assert.match(
    warnings.at(-1)!,
    /^::warning::21 more warnings are not annotated \(GitHub shows 10 of a step\): each is in the log$/,
  );
  for (let n = 0; n < 30; n++) {
    assert.match(r.stdout, new RegExp(`^ {4}error: GET /api/nope/${n} on`, 'm'), `failure ${n} is in the log`);
    assert.match(r.stdout, new RegExp(`^ {4}failed \\(continue-on-error\\): GET /api/nope/${n} on`, 'm'), `${n}`);
  }
});
