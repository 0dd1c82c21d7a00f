// A run store's journal that cannot be read, through the action (input store): a segment whose
// line was altered, or whole records that hold no run's start, refused on a resume (journal:
// RUN_ID, read before and again once the run's own lease is held) and when a fleet lease is taken
// over from the run that wrote it. What the action says names its inputs and outputs, never the
// CLI's --journal or `enginectl run --journal` its user cannot pass.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { decodeLine, encodeLine } from '../../src/journal/frame.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog, type InProcessRun } from '../helpers/toolkit.ts';

const ROOT = actionDef('enginectl');
const VFS = '/api/devops/v1/update/vfs';

/** A flag or command of the CLI the action takes no input for. */
const CLI_WAY = /--(?:in-doubt|resume|continue|take-over|reason|journal|store|run)\b|enginectl (?:run|runs|verify)\b/;

const PIPELINE = `version: 1
name: Stored release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** Everything the runner shows of an action's run: its log and annotations, and the summary. */
const shown = (run: InProcessRun) => `${runnerLog(run)}\n${run.summary}`;

/** A run of the action in a directory store whose write was applied and its answer lost: in doubt. */
async function storedRun(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-stored-hints-')), 'store');
  mkdirSync(store);
  const run = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', store: `file://${store}`, ...inputs },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
  emulator.faults.add({ method: 'POST', path: VFS, reset: 'after', times: 1 });
  const first = await run({});
  assert.equal(first.code, ExitCode.failed, first.failed.join('\n'));
  const id = first.outputs['run-id']!;
  const segments = join(store, 'runs', id, 'journal');
  const firstSegment = join(segments, readdirSync(segments).sort()[0]!);
  /** The journal's first line (its run record) rewritten by `change`. */
  const rewriteFirst = (change: (line: string) => string) => {
    const [line, ...rest] = readFileSync(firstSegment, 'utf8').split('\n');
    writeFileSync(firstSegment, [change(line!), ...rest].join('\n'));
  };
  const writes = () => emulator.requests.filter((r) => r.method !== 'GET').length;
  return { store, id, run, rewriteFirst, writes };
}

/** The run record's line made a resume's, whole (its CRC right): the journal holds no run's start. */
function asResumeRecord(line: string): string {
  const record = decodeLine(line) as Record<string, unknown>;
  assert.equal(record.t, 'run');
  return encodeLine({ ...record, resume: true }).trimEnd();
}

test("journal: RUN_ID whose segment in the store was altered: STORE_DAMAGED, the hint naming the job's journal output, not --journal", async (t) => {
  const s = await storedRun(t);
  s.rewriteFirst((line) => line.replace('"t":"run"', '"t":"RUN"'));
  const sent = s.writes();
  const resumed = await s.run({ journal: s.id, 'in-doubt': 'skip' });
  assert.equal(resumed.code, ExitCode.failed, shown(resumed));
  assert.match(shown(resumed), /STORE_DAMAGED/);
  assert.match(shown(resumed), /00000001 is not a segment of a journal of enginectl \(its line 1 is cut or altered\)/);
  assert.match(shown(resumed), /its runner's local journal file \(that job's journal output/);
  assert.doesNotMatch(shown(resumed), CLI_WAY);
  assert.equal(s.writes(), sent, 'nothing was sent');
});

test('journal: RUN_ID whose stored journal holds no run record: refused as no journal of a run of the action, not of `enginectl run --journal`', async (t) => {
  const s = await storedRun(t);
  s.rewriteFirst(asResumeRecord);
  const sent = s.writes();
  const resumed = await s.run({ journal: s.id, 'in-doubt': 'skip' });
  assert.equal(resumed.code, ExitCode.invalidInput, shown(resumed));
  assert.match(shown(resumed), /no run record; this is not a journal of a run of the action \(its journal output\)/);
  // A run of the store: its records are the store's to put back, no file to give.
  assert.match(shown(resumed), /hint: nothing but enginectl writes under runs\/ in a run store/);
  assert.doesNotMatch(shown(resumed), CLI_WAY);
  assert.equal(s.writes(), sent, 'nothing was sent');
});

test('input lease expired in the hands of a run whose stored journal holds no run record: the takeover refused, its words naming no CLI flag', async (t) => {
  const s = await storedRun(t);
  s.rewriteFirst(asResumeRecord);
  const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
  await acquireLease(new DirectoryStore(`file://${s.store}`), 'prod-fleet', {
    holder: { runId: s.id, actor: 'night-job', host: 'runner-7' },
    ttlMs: 60_000,
    waitMs: 0,
    clock: hourAgo,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const sent = s.writes();
  const refused = await s.run({ lease: 'prod-fleet' });
  assert.equal(refused.code, ExitCode.invalidInput, shown(refused));
  assert.match(
    shown(refused),
    new RegExp(
      `run ${s.id}'s journal could not be read from the store: .* this is not a journal of a run of the action`,
    ),
  );
  assert.match(shown(refused), new RegExp(`then resume run ${s.id} itself \\(journal: ${s.id} with store:`));
  assert.doesNotMatch(shown(refused), CLI_WAY);
  assert.equal(s.writes(), sent, 'nothing was sent');
});

test("journal: naming no run id or a run the store does not hold, continue: naming a run that did not park: the hints name the job's run-id output, not enginectl runs --store", async (t) => {
  const s = await storedRun(t);
  const resumed = await s.run({ journal: s.id, 'in-doubt': 'skip' });
  assert.equal(resumed.code, ExitCode.ok, shown(resumed));
  const sent = s.writes();
  const absent = s.id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
  for (const [inputs, refused] of [
    [{ journal: 'last-night' }, /input journal last-night: not a run id/],
    [{ journal: absent }, new RegExp(`holds no run ${absent}`)],
    [{ continue: s.id }, new RegExp(`run ${s.id}: its last run did not park; there is nothing to continue`)],
  ] as const) {
    const run = await s.run(inputs);
    assert.equal(run.code, ExitCode.invalidInput, shown(run));
    assert.match(shown(run), refused);
    assert.match(shown(run), /the run-id output of the job that (ran|parked) it/);
    assert.doesNotMatch(shown(run), CLI_WAY);
  }
  assert.equal(s.writes(), sent, 'nothing was sent');
});

test("input lease whose newest record a newer enginectl wrote: STORE_VERSION, the hint naming the action's steps, not --continue and --resume", async (t) => {
  const s = await storedRun(t);
  const first = await s.run({ journal: s.id, 'in-doubt': 'skip', lease: 'prod-fleet' });
  assert.equal(first.code, ExitCode.ok, shown(first));
  // A newer enginectl's runner took the lease since: its record, of lease record version 2.
  const leaseDir = join(s.store, 'leases', 'prod-fleet');
  const last = readdirSync(leaseDir)
    .filter((k) => /^[0-9]{8}$/.test(k))
    .sort()
    .at(-1)!;
  const record = JSON.parse(readFileSync(join(leaseDir, last), 'utf8')) as Record<string, unknown>;
  const at = Date.now();
  writeFileSync(
    join(leaseDir, String(Number(last) + 1).padStart(8, '0')),
    JSON.stringify({
      ...record,
      v: 2,
      kind: 'acquire',
      holder: { runId: 'newer-run', actor: 'ci', host: 'runner-9' },
      at,
      expiresAt: at + 600_000,
    }),
  );
  const sent = s.writes();
  const refused = await s.run({ lease: 'prod-fleet' });
  assert.equal(refused.code, ExitCode.invalidInput, shown(refused));
  assert.match(shown(refused), /is a lease record of version 2, written by a newer enginectl than this one/);
  assert.match(shown(refused), /run every job of this run store \(the action's steps, pinned to one version/);
  assert.doesNotMatch(shown(refused), CLI_WAY);
  assert.equal(s.writes(), sent, 'nothing was sent');
});

test("journal: RUN_ID of a run that held no fleet lease, while another fleet's lease record is a newer enginectl's: STORE_VERSION, the hint naming the action's steps, not --continue and --resume", async (t) => {
  const s = await storedRun(t);
  // Another fleet, sharing the store, runs a newer enginectl: its lease's newest record is of lease record version 2.
  const at = Date.now();
  mkdirSync(join(s.store, 'leases', 'other-fleet'), { recursive: true });
  writeFileSync(
    join(s.store, 'leases', 'other-fleet', '00000001'),
    JSON.stringify({
      v: 2,
      kind: 'acquire',
      holder: { runId: 'newer-run', actor: 'ci', host: 'runner-9' },
      at,
      expiresAt: at + 600_000,
      served: 0,
    }),
  );
  const sent = s.writes();
  const refused = await s.run({ journal: s.id, 'in-doubt': 'skip' });
  assert.equal(refused.code, ExitCode.invalidInput, shown(refused));
  assert.match(shown(refused), /other-fleet\/00000001 is a lease record of version 2, written by a newer enginectl/);
  assert.match(shown(refused), /run every job of this run store \(the action's steps, pinned to one version/);
  assert.doesNotMatch(shown(refused), CLI_WAY);
  assert.equal(s.writes(), sent, 'nothing was sent');
});
