// A write's fate is read on the server it was sent to (verify-moved-server.test.ts): verify
// compares the server's URL now with the one the run that sent the call recorded. A URL taken from
// a secret (url: ${{ secrets.ENGINE_URL }}) is recorded masked, `***`, whatever server it names:
// compared masked, any server is "the same", and a resume with the secret set to another server
// read that server, found the write not there and sent it again. Without ENGINECTL_JOURNAL_KEY the
// journal keeps nothing that tells the server (a hash under the journal's own salt could be
// guessed offline): the call is "cannot tell", nothing read, nothing sent. With the key, the run
// record keeps the key's fingerprint of the place: the run's server is read, another is not.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const JDOE = '/api/classes/v1/classes/12/entities/2001';
const PIPELINE = `version: 1
name: Secret place
servers:
  main: { url: "\${{ secrets.ENGINE_URL }}", username: admin, password: admin, allow-insecure-http: true }
steps:
  - id: update
    uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`;
const KEY = 'k'.repeat(8) + '-journal-key-0123';

/** A PATCH applied on the server the secret names, its answer reset: in doubt; `key` the journal's key, if any. */
async function appliedInDoubt(t: TestContext, key: string | undefined) {
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const sent = await startEmulator(t, { now: clock.now });
  const other = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-secret-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = {
    ENGINE_URL: sent.url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    ...(key ? { ENGINECTL_JOURNAL_KEY: key } : {}),
  };
  const cli = (args: string[], more: Record<string, string> = {}) => runCli(args, { env: { ...env, ...more }, clock });
  sent.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'after', times: 1 });
  const run = await cli(['run', file, '--journal', journal]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const patches = (e: typeof sent) => e.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === JDOE);
  assert.equal(patches(sent).filter((r) => r.applied).length, 1, 'the server applied it');
  assert.ok(!readFileSync(journal, 'utf8').includes(new URL(sent.url).host), 'the secret URL is not in the journal');
  // Past the step's longest: a server that does not hold the write reads not applied.
  await clock.sleep(5 * 60_000, new AbortController().signal);
  const resume = (more: Record<string, string> = {}) =>
    cli(['run', file, '--resume', journal, '--in-doubt', 'verify-and-retry'], more);
  return {
    resume,
    verify: (more: Record<string, string> = {}) => cli(['verify', journal, '--pipeline', file], more),
    journal,
    otherUrl: other.url,
    applied: () => patches(sent).filter((r) => r.applied).length,
    elsewhere: () => other.emulator.requests.filter((r) => r.path.startsWith('/api/classes/')).length,
  };
}

test('without ENGINECTL_JOURNAL_KEY, a resume whose server URL is a secret set to another server reads no server: the call is cannot-tell (no fingerprint to tell it by), nothing sent', async (t) => {
  const s = await appliedInDoubt(t, undefined);
  const moved = await s.resume({ ENGINE_URL: s.otherUrl });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /cannot-tell: server main's URL is a secret/);
  assert.match(moved.stderr, /ENGINECTL_JOURNAL_KEY/);
  assert.doesNotMatch(moved.stdout + moved.stderr, /not-applied/);
  assert.equal(s.elsewhere(), 0, 'the other server was not read, nor written');
  assert.equal(s.applied(), 1, 'not sent again');
  // The run's own server is no more told apart: the operator checks and decides.
  const same = await s.resume();
  assert.equal(same.code, 2, same.stdout + same.stderr);
  assert.match(same.stderr, /cannot-tell: server main's URL is a secret/);
  assert.equal(s.applied(), 1, 'not sent again');
});

test("with ENGINECTL_JOURNAL_KEY, the run record keeps the key's fingerprint of a secret server's place: a resume on another server is cannot-tell, nothing sent; on the run's own it reads applied and sends nothing", async (t) => {
  const s = await appliedInDoubt(t, KEY);
  const run = readFileSync(s.journal, 'utf8').split('\n')[0]!;
  assert.match(
    run,
    /"places":\{"keyCheck":"hmac-sha256:[0-9a-f]{64}","called":\{"main":"hmac-sha256:[0-9a-f]{64}"\}\}/,
  );
  const moved = await s.resume({ ENGINE_URL: s.otherUrl });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /cannot-tell: server main is not where the run that sent its call in doubt had it/);
  assert.equal(s.elsewhere(), 0, 'the other server was not read, nor written');
  assert.equal(s.applied(), 1, 'not sent again');
  // Another key tells nothing: cannot tell, rather than "another server".
  const otherKey = await s.resume({ ENGINECTL_JOURNAL_KEY: 'another-journal-key-0123' });
  assert.equal(otherKey.code, 2, otherKey.stdout + otherKey.stderr);
  assert.equal(s.applied(), 1, 'not sent again');
  const back = await s.resume();
  assert.equal(back.code, 0, back.stdout + back.stderr);
  assert.equal(s.applied(), 1, 'read applied on the server it was sent to: not sent again');
  assert.equal(s.elsewhere(), 0);
});

test("without ENGINECTL_JOURNAL_KEY, enginectl verify on the run's own secret server says the call cannot be told (exit 1), not that the pipeline is another run's: the operator checks and decides", async (t) => {
  const s = await appliedInDoubt(t, undefined);
  const verified = await s.verify();
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.doesNotMatch(verified.stdout + verified.stderr, /PIPELINE_NOT_THE_RUNS/);
  assert.match(verified.stdout + verified.stderr, /cannot-tell/);
  assert.match(verified.stdout + verified.stderr, /server main's URL is a secret/);
  assert.equal(s.elsewhere(), 0);
  // Moved with the key: another server proven, refused as another run's pipeline (nothing read there).
  const keyed = await appliedInDoubt(t, KEY);
  const moved = await keyed.verify({ ENGINE_URL: keyed.otherUrl });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /PIPELINE_NOT_THE_RUNS/);
  assert.equal(keyed.elsewhere(), 0);
});
