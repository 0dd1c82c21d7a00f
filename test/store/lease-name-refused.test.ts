// A lease's name that is none (a space, a !, over 100 characters), given at run time (run --lease,
// lease status NAME, the action's input lease), is invalid input: BAD_ARGUMENTS on the command
// line, BAD_INPUT in the action, never LEASE_HELD ("another run holds the lease: wait for it"),
// on which a script would wait for ever. Its message says what a lease's name may be. Through the
// CLI (runCli) and the action in this process (which shows no code for a refusal before the run:
// its summary says invalid input).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const ALLOWED =
  /a lease's name is letters, digits, dots, dashes, underscores and =, 1 to 100 of them, the first a letter or digit/;
const LONG = `prod-${'x'.repeat(96)}`;

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-name-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  return { file, url: `file://${dir}` };
}

for (const name of ['bad name!', '-prod', LONG])
  test(`run --lease ${JSON.stringify(name.slice(0, 12))}... (no lease's name): BAD_ARGUMENTS, saying what a name may be, nothing sent`, async () => {
    const s = store();
    const r = await runCli(['run', s.file, '--emulator', '--store', s.url, `--lease=${name}`]);
    const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stderr, /code: BAD_ARGUMENTS\n$/, said);
    assert.doesNotMatch(said, /LEASE_HELD/);
    assert.match(r.stderr, ALLOWED, said);
    if (name !== LONG) assert.match(r.stderr, /hint: .*--lease prod-fleet/, said);
    assert.doesNotMatch(r.stdout, /Clear the transaction log/, 'nothing was run');
  });

for (const name of ['bad name!', LONG])
  test(`lease status ${JSON.stringify(name.slice(0, 12))}... (no lease's name): BAD_ARGUMENTS, saying what a name may be`, async () => {
    const s = store();
    const r = await runCli(['lease', 'status', '--store', s.url, name]);
    const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stderr, /code: BAD_ARGUMENTS\n$/, said);
    assert.match(r.stderr, ALLOWED, said);
  });

test("the action's input lease that is no lease's name: invalid input, saying what a name may be", async (t) => {
  const s = store();
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url, username: 'admin', password: 'admin', store: s.url, lease: 'bad name!' },
  });
  const log = runnerLog(run);
  assert.equal(run.code, 2, log);
  assert.match(run.summary, /enginectl: invalid input/, run.summary);
  assert.match(log, ALLOWED, log);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test('a lease over: a matrix key whose every value the run skips: invalid input (BAD_ARGUMENTS), not LEASE_HELD; nothing sent', async () => {
  const s = store();
  writeFileSync(
    s.file,
    'version: 1\nlease: { name: fleet, over: site }\nsteps:\n  - uses: transaction-log/clear\n    matrix: { site: [a, b] }\n',
  );
  const r = await runCli(['run', s.file, '--emulator', '--store', s.url, '--skip', 'site=a', '--skip', 'site=b']);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.doesNotMatch(said, /LEASE_HELD/);
  assert.match(r.stderr, /code: BAD_ARGUMENTS\n$/, said);
});
