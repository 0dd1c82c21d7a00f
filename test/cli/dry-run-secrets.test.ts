// A dry run (run --dry-run, plan without --live) sends nothing, so it needs no secret's value: a
// secret the environment does not set stands in, masked as every secret is (the plan reads *** either
// way), and the dry run names it in a warning (a run will need it). On the embedded emulator
// (--emulator) or against a server named by ENGINE_URL alike. What a dry run shows (env.NAME) and
// what sends (a run, a live plan) still need every value. The CLI's source in this process (runCli).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'enginectl-dry-secrets-'));
const FILE = join(dir, 'qa.yml');
writeFileSync(
  FILE,
  `version: 1
name: QA update
targets:
  qa: { server: qa-db.example.com, database: QA, token: "\${{ secrets.QA_TOKEN }}" }
steps:
  - uses: update/system
    with: { target: qa, message: "\${{ env.RELEASE }}" }
`,
);
const SERVER = { ENGINE_URL: 'https://erp.example.com', ENGINE_USERNAME: 'ci', RELEASE: '26.11' };

test('run --dry-run and plan, with --emulator or a server, need no secret set: it stands in, masked, and a warning names it', async () => {
  for (const args of [
    ['run', FILE, '--dry-run'],
    ['plan', FILE],
    ['run', FILE, '--dry-run', '--emulator'],
    ['plan', FILE, '--emulator'],
  ]) {
    const what = args.slice(2).join(' ') || args[0]!;
    const r = await runCli(args, { env: SERVER });
    assert.equal(r.code, 0, `${args[0]} ${what}: ${r.stderr}`);
    assert.match(r.stdout, /"targetAuthToken": "\*\*\*"/, `${args[0]} ${what}: the token masked, as a set one is`);
    assert.match(r.stdout, /"messageComplement": "26\.11"/, `${args[0]} ${what}`);
    assert.equal(
      r.stderr,
      'enginectl: warning: not set: secrets.QA_TOKEN; the dry run shows it masked (it sends nothing), and a run needs it\n',
      `${args[0]} ${what}`,
    );
  }
});

test('a run, a live plan, and a dry run short of an env value it shows, still refuse what is not set (exit 2)', async () => {
  const run = await runCli(['run', FILE, '--emulator'], { env: SERVER });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /secrets\.QA_TOKEN is not set/);
  const live = await runCli(['plan', FILE, '--live', '--emulator'], { env: SERVER });
  assert.equal(live.code, 2, live.stderr);
  assert.match(live.stderr, /secrets\.QA_TOKEN is not set/);
  const { RELEASE: _shown, ...noRelease } = SERVER;
  const shown = await runCli(['run', FILE, '--dry-run'], { env: noRelease });
  assert.equal(shown.code, 2, shown.stderr);
  assert.match(shown.stderr, /env\.RELEASE is not set/);
  assert.doesNotMatch(shown.stderr, /QA_TOKEN/, 'the secret is no problem of a dry run');
});
