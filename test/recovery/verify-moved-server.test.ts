// A write's fate is read on the server it was sent to. A resume that verifies its calls in doubt
// (--in-doubt verify, verify-and-retry; from a journal file or a run store) reads each call's
// server at the URL the pipeline resolves now: where that URL moved since the run that sent the
// call (ENGINE_URL set otherwise, a file edited and resumed with --force: a resume only warns
// of a moved server), verify would read another server, find the write not there, and
// verify-and-retry would send the applied write again. The call is "cannot tell" instead, its
// evidence saying the server moved: nothing is read there, nothing sent; given the run's URL
// again, verify reads the server the call went to, and the write is sent once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const JDOE = '/api/classes/v1/classes/12/entities/2001';
const UPDATE = `  - id: update
    uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`;

/** Two servers on one simulated clock; a PATCH applied on the first, its answer reset: in doubt. */
async function appliedInDoubt(t: TestContext, servers: (url: string) => string, where: 'journal' | 'store') {
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const sent = await startEmulator(t, { now: clock.now });
  const other = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-moved-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, `version: 1\nname: Moved\n${servers(sent.url)}steps:\n${UPDATE}`);
  const env = { ENGINE_URL: sent.url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  mkdirSync(join(dir, 'store'));
  const store = `file://${join(dir, 'store')}`;
  const journal = join(dir, 'run.journal.jsonl');
  const cli = (args: string[], more: Record<string, string> = {}) => runCli(args, { env: { ...env, ...more }, clock });
  sent.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'after', times: 1 });
  const run = await cli(['run', file, ...(where === 'store' ? ['--store', store] : ['--journal', journal])]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const patches = (e: typeof sent) => e.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === JDOE);
  assert.equal(patches(sent).filter((r) => r.applied).length, 1, 'the server applied it');
  // Past the step's longest: a server that does not hold the write reads not applied.
  await clock.sleep(5 * 60_000, new AbortController().signal);
  const id = /^run: (\S+) in /m.exec(run.stdout)?.[1];
  const resume = where === 'store' ? ['--store', store, '--resume', id!] : ['--resume', journal];
  const applied = () => patches(sent).filter((r) => r.applied).length;
  const elsewhere = () => other.emulator.requests.filter((r) => r.path.startsWith('/api/classes/')).length;
  return { file, other, cli, resume, applied, elsewhere, sentUrl: sent.url };
}

/** A resume with ENGINE_URL set to the other server, then to the run's again. */
async function resumedWithUrlMoved(t: TestContext, where: 'journal' | 'store') {
  const s = await appliedInDoubt(t, () => '', where);
  const moved = await s.cli(['run', s.file, ...s.resume, '--in-doubt', 'verify-and-retry'], {
    ENGINE_URL: s.other.url,
  });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(
    moved.stderr,
    /verify could not settle an in-doubt call: "Update an entity" \(PATCH [^)]+\): cannot-tell: server default is \S+ here, \S+ in the run that sent its call in doubt/,
  );
  assert.doesNotMatch(moved.stdout + moved.stderr, /not-applied/);
  assert.equal(s.elsewhere(), 0, 'the other server was not read, nor written');
  assert.equal(s.applied(), 1, 'not sent again');

  const back = await s.cli(['run', s.file, ...s.resume, '--in-doubt', 'verify-and-retry']);
  assert.equal(back.code, 0, back.stdout + back.stderr);
  assert.equal(s.applied(), 1, 'read applied on the server it was sent to: not sent again');
}

test("run --resume (journal) --in-doubt verify-and-retry with ENGINE_URL moved since the run reads no other server: the call is cannot-tell, the server moved, nothing sent; with the run's URL it reads applied and sends nothing", (t) =>
  resumedWithUrlMoved(t, 'journal'));

test("run --store URL --resume ID --in-doubt verify-and-retry with ENGINE_URL moved since the run reads no other server: the call is cannot-tell, nothing sent; with the run's URL it reads applied and sends nothing", (t) =>
  resumedWithUrlMoved(t, 'store'));

test('run --resume --force of a file whose server URL was edited, --in-doubt verify-and-retry, reads no other server: the call is cannot-tell, nothing sent', async (t) => {
  const servers = (url: string) =>
    `servers:\n  db: { url: "${url}", username: admin, password: admin, allow-insecure-http: true }\n`;
  const s = await appliedInDoubt(t, servers, 'journal');
  const text = readFileSync(s.file, 'utf8');
  writeFileSync(s.file, text.replace(s.sentUrl, s.other.url));
  const moved = await s.cli(['run', s.file, ...s.resume, '--force', '--in-doubt', 'verify-and-retry']);
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /cannot-tell: server db is \S+ here, \S+ in the run that sent its call in doubt/);
  assert.equal(s.elsewhere(), 0, 'the other server was not read, nor written');
  assert.equal(s.applied(), 1, 'not sent again');
});
