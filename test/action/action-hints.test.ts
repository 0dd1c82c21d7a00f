// What the action says to do next names its inputs (in-doubt:, journal:, continue:,
// override-freeze:), never a flag of the CLI its user cannot pass: a write left in doubt, a run
// whose continue-on-error step left one, a write that does not fit its window (refused, or parked
// in a run store). Seen where the runner shows them: the log, the annotations, the failure, the
// job summary and the JSON report.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { simulatedClock } from '../../src/app/clock.ts';
import { ExitCode } from '../../src/errors.ts';
import type { JournalFs } from '../../src/journal/file.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';
import { runActionInProcess, runnerLog, type InProcessAction, type InProcessRun } from '../helpers/toolkit.ts';

const ROOT = actionDef('enginectl');
const VFS = '/api/devops/v1/update/vfs';
const CLEAR = '/api/devops/v1/transaction-log/clear';

/** A flag of the CLI's run (or its verify command on a journal file) that the action takes no input for. */
const CLI_WAY =
  /--(?:in-doubt|resume|continue|override-freeze|reason|take-over|var|journal|store)\b|enginectl (?:run|verify JOURNAL)/;

/** Everything the runner shows of an action's run: its log and annotations, the summary, the JSON report. */
function shown(run: InProcessRun): string {
  const report = run.outputs.report && existsSync(run.outputs.report) ? readFileSync(run.outputs.report, 'utf8') : '';
  return [runnerLog(run), run.summary, report].join('\n');
}

const UPDATE = `version: 1
name: Release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

async function update(
  t: Parameters<typeof startEmulator>[0],
  pipeline: string,
  fault: 'reset' | 'hang',
): Promise<InProcessRun> {
  const { url, emulator } = await startEmulator(t);
  // reset: the update is applied and its answer lost; hang: no answer until the run is stopped. Either way in doubt.
  emulator.faults.add({
    method: 'POST',
    path: VFS,
    ...(fault === 'reset' ? { reset: 'after' } : { hang: true }),
    times: 1,
  });
  const stop = new AbortController();
  const running = runActionInProcess(ROOT, {
    files: { 'release.yml': pipeline },
    inputs: { pipeline: 'release.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    signal: stop.signal,
  });
  if (fault === 'hang') {
    await until(() => emulator.count('POST', VFS) === 1);
    stop.abort();
  }
  return running;
}

test("a run stopped while its write was out: what to do is said in the action's inputs (in-doubt:), in the log, the summary and the report", async (t) => {
  const run = await update(t, UPDATE, 'hang');
  assert.equal(run.code, ExitCode.interrupted, run.failed.join('\n'));
  const seen = shown(run);
  assert.match(seen, /cancelled after sending POST \/api\/devops\/v1\/update\/vfs/);
  assert.match(seen, /read the target back with in-doubt: verify on a resume \(journal: the journal output/);
  assert.match(seen, /then resume with in-doubt: skip \(it was applied\) or in-doubt: retry/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test("a continue-on-error step that left its write in doubt: the failure says to decide it with the action's inputs", async (t) => {
  const run = await update(
    t,
    UPDATE.replace('    uses: update/vfs\n', '    uses: update/vfs\n    continue-on-error: true\n'),
    'reset',
  );
  assert.equal(run.code, ExitCode.failed);
  assert.equal(run.outputs.outcome, 'success');
  assert.match(run.failed.join('\n'), /1 step run\(s\) left a write in doubt: .*in-doubt: skip\|retry\|verify/);
  assert.doesNotMatch(shown(run), CLI_WAY);
});

/** One write whose window (02:00-06:00 UTC) is closed at noon, on the run's clock. */
async function closedWindow(t: Parameters<typeof startEmulator>[0], inputs: Record<string, string>) {
  const { url, emulator } = await startEmulator(t);
  const pipeline = `version: 1
name: Nightly
windows:
  night: { cron: '0 2 * * *', duration: 4h, zone: UTC }
override-freeze:
  - { actor: alice }
steps:
  - id: clear
    uses: transaction-log/clear
    expected: 10m
`;
  const options: InProcessAction = {
    files: { 'nightly.yml': pipeline },
    inputs: { pipeline: 'nightly.yml', ...inputs },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', GITHUB_ACTOR: 'alice' },
    clock: simulatedClock(Date.parse('2026-12-01T12:00:00Z')),
  };
  const run = await runActionInProcess(ROOT, options);
  assert.equal(emulator.requests.filter((r) => r.method === 'POST').length, 0, 'nothing was sent');
  return run;
}

test("a write outside its window, without a store: refused, the override named as the action's inputs", async (t) => {
  const run = await closedWindow(t, {});
  assert.equal(run.outputs.outcome, 'failure');
  const seen = shown(run);
  assert.match(seen, /the next window it fits in opens at 2026-12-02T02:00:00/);
  assert.match(seen, /override-freeze: true with override-reason:/);
  // Each rule of the pipeline's override-freeze: as it reads, not as "[object Object]".
  assert.match(seen, /as one of override-freeze: \(\{ actor alice \}\)/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test('a write outside its window, with a store: parked, the way on named as input continue', async (t) => {
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  const run = await closedWindow(t, { store: `file://${store}` });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  assert.equal(run.outputs.outcome, 'parked');
  const seen = shown(run);
  assert.match(seen, /continue: RUN \(with store:\) at or after then/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test("a stored run whose lease expired while it waited to retry: LEASE_LOST, the resume named as the action's inputs", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  // The first attempt is refused (nothing applied); the run's wait before the retry lasts past its lease's ttl.
  emulator.faults.add({ method: 'POST', path: CLEAR, status: 400, times: 1 });
  const clock = simulatedClock(Date.parse('2026-12-01T12:00:00Z'));
  const pipeline = `version: 1
name: Leased
lease: { name: prod-fleet, ttl: 1m }
steps:
  - id: clear
    uses: transaction-log/clear
    retry: { attempts: 2, delay: 2h }
`;
  const run = await runActionInProcess(ROOT, {
    files: { 'leased.yml': pipeline },
    inputs: { pipeline: 'leased.yml', store: `file://${store}` },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    clock,
  });
  assert.equal(run.code, ExitCode.failed);
  const seen = shown(run);
  assert.match(seen, /LEASE_LOST|is no longer this run's/);
  assert.match(seen, /journal: \S+ with store:/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test("input journal naming no file, a file that is no journal, or a store's run by no run id, and input store naming no store: refused naming the input, not a flag of the CLI", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  const run = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': UPDATE, 'notes.jsonl': 'not a journal\n' },
      inputs: { pipeline: 'release.yml', ...inputs },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
  const missing = await run({ journal: 'release.journal.jsonl' });
  assert.equal(missing.code, ExitCode.invalidInput);
  assert.match(shown(missing), /no such file/);
  assert.match(shown(missing), /its journal output/);
  assert.doesNotMatch(shown(missing), CLI_WAY);
  assert.doesNotMatch(shown(missing), /--journal|--run\b/);

  const notOne = await run({ journal: 'notes.jsonl' });
  assert.equal(notOne.code, ExitCode.invalidInput);
  assert.match(shown(notOne), /not a record of an enginectl journal/);
  assert.match(shown(notOne), /give the file written by a run of the action \(its journal output\)/);
  assert.doesNotMatch(shown(notOne), CLI_WAY);

  const notAnId = await run({ store: `file://${store}`, journal: 'last-night' });
  assert.equal(notAnId.code, ExitCode.invalidInput);
  assert.match(shown(notAnId), /input journal last-night: not a run id/);
  assert.doesNotMatch(shown(notAnId), /--run\b/);

  const notAStore = await run({ store: 'http://stores.example.com/runs' });
  assert.notEqual(notAStore.code, ExitCode.ok);
  assert.match(shown(notAStore), /is not a run store/);
  assert.match(shown(notAStore), /give input store \(or ENGINECTL_STORE\) as s3:/);
  assert.doesNotMatch(shown(notAStore), CLI_WAY);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test("merge mode over the journal of a job killed while its write was out: the step's hint names the action's inputs", async (t) => {
  const stopped = await update(t, UPDATE, 'hang');
  // The job killed once its call left: its journal ends at the call's send record, as a crash leaves it.
  const lines = readFileSync(stopped.outputs.journal!, 'utf8').split('\n');
  const cut = lines.slice(0, lines.findIndex((l) => l.startsWith('{"t":"send"')) + 1).join('\n') + '\n';
  const merged = await runActionInProcess(ROOT, {
    files: { 'jobs/release.journal.jsonl': cut },
    inputs: { merge: 'jobs' },
  });
  assert.equal(merged.code, ExitCode.failed, merged.failed.join('\n'));
  const seen = shown(merged);
  assert.match(seen, /the run ended after sending POST \/api\/devops\/v1\/update\/vfs/);
  assert.match(seen, /then resume with in-doubt: skip \(it was applied\) or in-doubt: retry/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test('a line of input vars, only or skip that is no NAME=VALUE: refused naming the input, not --var, --only or --skip', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': UPDATE },
      inputs: { pipeline: 'release.yml', ...inputs },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
  for (const [input, kind] of [
    ['vars', 'NAME=VALUE'],
    ['only', 'KEY=VALUE'],
    ['skip', 'KEY=VALUE'],
  ] as const) {
    const refused = await run({ [input]: 'release' });
    assert.equal(refused.code, ExitCode.invalidInput, input);
    assert.match(shown(refused), new RegExp(`input ${input} release: expected ${kind}`));
    assert.match(shown(refused), /one a line/);
    assert.doesNotMatch(shown(refused), /--(?:var|only|skip)\b/);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

/** node:fs whose disk fills after `writes` writes to the journal: each later one fails ENOSPC. */
function fullAfterWrites(writes: number): JournalFs {
  let left = writes;
  return {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer | string, offset: number, length: number) => {
      if (typeof buffer === 'string') return fs.writeSync(fd, buffer);
      if (left-- <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      return fs.writeSync(fd, buffer, offset, length);
    }) as JournalFs['writeSync'],
  };
}

test("a journal on a full disk, with input store or without: JOURNAL_WRITE_FAILED, what to do said without the CLI's --journal or --store", async (t) => {
  const { url } = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  // No record written (run the pipeline again), and one written (resume from the journal); the journal kept in a store too.
  for (const [writes, then, stored] of [
    [0, /then run the pipeline again/, {}],
    [1, /then resume from this journal/, {}],
    [0, /then run the pipeline again/, { store: `file://${store}` }],
    [1, /then resume from this journal/, { store: `file://${store}` }],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'release.yml': UPDATE },
      inputs: { pipeline: 'release.yml', ...stored },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
      journalFs: fullAfterWrites(writes),
    });
    assert.equal(run.code, ExitCode.failed, String(writes));
    const seen = shown(run);
    assert.match(seen, /JOURNAL_WRITE_FAILED/);
    assert.match(seen, /a record could not be written \(ENOSPC\)/);
    assert.match(seen, new RegExp(`free space on the runner's disk, ${then.source}`));
    assert.doesNotMatch(seen, CLI_WAY);
  }
});

/** Words of the CLI's report --merge and its flags, which merge mode takes no input for. */
const CLI_MERGE = /report --merge|--(?:report-json|journal|force|var|only|skip|resume|continue)\b|enginectl run/;

/** The journal of a run of the action that ended (its one write answered). */
async function journalOf(t: Parameters<typeof startEmulator>[0], pipeline: string): Promise<string> {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': pipeline },
    inputs: { pipeline: 'release.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  return readFileSync(run.outputs.journal!, 'utf8');
}

test("merge mode refusing what it was given: said as input merge and the jobs' outputs, not report --merge and the CLI's flags", async (t) => {
  const release = await journalOf(t, UPDATE);
  const other = await journalOf(t, UPDATE.replace('name: Release', 'name: Hotfix'));
  const [first, ...rest] = release.split('\n');
  const merge = (files: Record<string, string>, merge = 'jobs') =>
    runActionInProcess(ROOT, { files: { 'jobs/.keep': '', ...files }, inputs: { merge } });
  for (const [files, refused] of [
    [
      { 'jobs/summary.json': '# Release\n' },
      /input merge: jobs\/summary\.json is neither a JSON report .* nor a journal/,
    ],
    [{ 'jobs/a.journal.jsonl': release, 'jobs/b.journal.jsonl': other }, /is a report of another pipeline than/],
    [{ 'jobs/a.journal.jsonl': release, 'jobs/b.journal.jsonl': release }, /both ran every instance of the pipeline/],
    [
      { 'jobs/a.journal.jsonl': [first, '{not a record', ...rest].join('\n') },
      /is not a journal of a run of the action/,
    ],
  ] as const) {
    const merged = await merge(files);
    assert.equal(merged.code, ExitCode.invalidInput, merged.failed.join('\n'));
    assert.match(shown(merged), refused);
    assert.doesNotMatch(shown(merged), CLI_MERGE);
  }
  const missing = await merge({}, 'jobs/release.json');
  assert.equal(missing.code, ExitCode.invalidInput);
  assert.match(shown(missing), /input merge: cannot read jobs\/release\.json \(ENOENT\)/);
  assert.doesNotMatch(shown(missing), CLI_MERGE);
});

/** A journal's text up to and with its first line that starts `record` (a job killed once it was written). */
function cutAfter(text: string, record: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(record));
  assert.ok(at >= 0, `no ${record} record in\n${text}`);
  return lines.slice(0, at + 1).join('\n') + '\n';
}

test("merge mode over the journal of a resume killed once it recorded its decision: the decision not acted on yet, the way on in the action's inputs", async (t) => {
  const stopped = await update(t, UPDATE, 'hang');
  const inDoubt = cutAfter(readFileSync(stopped.outputs.journal!, 'utf8'), '{"t":"send"');
  const { url } = await startEmulator(t);
  const resumed = await runActionInProcess(ROOT, {
    files: { 'release.yml': UPDATE, 'release.journal.jsonl': inDoubt },
    inputs: { pipeline: 'release.yml', journal: 'release.journal.jsonl', 'in-doubt': 'retry' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(resumed.code, ExitCode.ok, resumed.failed.join('\n'));
  // The resume killed once its decision was recorded, before it acted on it.
  const decided = cutAfter(readFileSync(join(resumed.workspace, 'release.journal.jsonl'), 'utf8'), '{"t":"decision"');
  const merged = await runActionInProcess(ROOT, {
    files: { 'jobs/release.journal.jsonl': decided },
    inputs: { merge: 'jobs' },
  });
  assert.equal(merged.code, ExitCode.failed, merged.failed.join('\n'));
  const seen = shown(merged);
  assert.match(seen, /not acted on yet: the run that goes on \(.*journal: .*\) acts on it/);
  assert.doesNotMatch(seen, CLI_WAY);
  for (const file of ['html', 'junit'] as const) {
    const path = join(dirname(merged.outputs.report!), `enginectl-fleet.${file === 'html' ? 'html' : 'junit.xml'}`);
    assert.match(readFileSync(path, 'utf8'), /not acted on yet/, file);
    assert.doesNotMatch(readFileSync(path, 'utf8'), CLI_WAY, file);
  }
});

test("merge mode over the journal of a job killed in a step before its call: the step's hint names input journal as the action's user gives it", async (t) => {
  const stopped = await update(t, UPDATE, 'hang');
  const started = cutAfter(readFileSync(stopped.outputs.journal!, 'utf8'), '{"t":"start"');
  const merged = await runActionInProcess(ROOT, {
    files: { 'jobs/release.journal.jsonl': started },
    inputs: { merge: 'jobs' },
  });
  assert.equal(merged.code, ExitCode.failed, merged.failed.join('\n'));
  const seen = shown(merged);
  assert.match(seen, /the run ended before this step finished/);
  assert.match(seen, /run it again with journal: /);
  assert.doesNotMatch(seen, /input journal JOURNAL/);
  assert.doesNotMatch(seen, CLI_WAY);
});

test('a pipeline reading a var it does not define: the hint names input vars, not --var', async (t) => {
  const { url, emulator } = await startEmulator(t);
  for (const [pipeline, refused] of [
    [
      UPDATE.replace('files: [1001]', 'files: [1001], message: "${{ vars.release }}"'),
      /unknown var "release"[^]*hint: define it under vars: or give it in input vars \(NAME=VALUE, one a line\)/,
    ],
    [
      UPDATE.replace('    uses: update/vfs\n', '    uses: update/vfs\n    matrix: { site: "${{ vars.sites }}" }\n'),
      /matrix\.site: unknown var "sites"[^]*hint: define it under vars: \(here or in an included inventory\) or give it in input vars \(NAME=\[a, b\], one a line\)/,
    ],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'release.yml': pipeline },
      inputs: { pipeline: 'release.yml' },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, ExitCode.invalidInput, run.failed.join('\n'));
    assert.match(shown(run), refused);
    assert.doesNotMatch(shown(run), CLI_WAY);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test("a write's record that took longer than 30 s to be written: not sent, the run stops, the resume named as the action's inputs, not --resume or --continue", async (t) => {
  const { url, emulator } = await startEmulator(t);
  // The run's steady time: the write of the vfs update's send record takes 31 s on it (a disk answering late).
  let late = 0;
  const slowDisk: JournalFs = {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer | string, offset: number, length: number) => {
      if (typeof buffer === 'string') return fs.writeSync(fd, buffer);
      const text = buffer.toString('utf8', offset, offset + length);
      if (text.includes('"t":"send"') && text.includes('/update/vfs')) late += 31_000;
      return fs.writeSync(fd, buffer, offset, length);
    }) as JournalFs['writeSync'],
  };
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': UPDATE },
    inputs: { pipeline: 'release.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    journalFs: slowDisk,
    stopwatch: () => performance.now() + late,
  });
  assert.equal(run.code, ExitCode.failed, run.failed.join('\n'));
  assert.equal(emulator.count('POST', VFS), 0, 'the write was not sent');
  const seen = shown(run);
  assert.match(
    seen,
    /took 31(\.0)?s to be written, longer than the 30s a write may be handed to the network after its record: it was not sent/,
  );
  assert.match(seen, /resume the run \(journal: the journal output, or the run-id output with store:/);
  assert.doesNotMatch(seen, CLI_WAY);
});

/** A pipeline over two sites whose update takes its files from a var. */
const SITES = `version: 1
name: Sites
vars:
  files: [1001]
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    matrix: { site: [east, west] }
    with: { target: prod, files: "\${{ vars.files }}" }
`;

test('input only or skip naming no instance: refused naming the input, not --only or --skip', async (t) => {
  const { url, emulator } = await startEmulator(t);
  for (const [inputs, refused] of [
    [{ only: 'region=east' }, /input only region=east: no matrix step has the key "region"/],
    [{ skip: 'site=north' }, /input skip site=north: no instance has site=north/],
    [{ only: 'site=east', skip: 'site=east' }, /left after input only and input skip: none/],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'sites.yml': SITES },
      inputs: { pipeline: 'sites.yml', ...inputs },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, ExitCode.invalidInput, JSON.stringify(inputs));
    assert.match(shown(run), refused);
    assert.doesNotMatch(shown(run), /--(?:only|skip)\b/);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test('input vars giving a value a step cannot take: refused naming input vars, not --var', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'sites.yml': SITES },
    inputs: { pipeline: 'sites.yml', vars: 'files=latest' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(shown(run), /vars\.files is files of step 1 \(update\/vfs\), given by input vars: /);
  assert.doesNotMatch(shown(run), /--var\b/);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test("a secret the pipeline reads and the step's environment lacks: the hint says to set it in the step's env:, not `enginectl run`", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'sites.yml': SITES },
    inputs: { pipeline: 'sites.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(shown(run), /secrets\.PROD_TOKEN is not set: no environment variable PROD_TOKEN/);
  assert.match(
    shown(run),
    /hint: set PROD_TOKEN in the step's env: from a secret \(PROD_TOKEN: \$\{\{ secrets\.PROD_TOKEN \}\}\)/,
  );
  assert.doesNotMatch(shown(run), CLI_WAY);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test("input lease that is no lease's name: refused naming input lease, not --lease", async (t) => {
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': UPDATE },
    inputs: { pipeline: 'release.yml', store: `file://${store}`, lease: 'prod fleet' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(shown(run), /lease "prod fleet": a lease's name is letters, digits/);
  assert.match(shown(run), /hint: input lease prod-fleet/);
  assert.doesNotMatch(shown(run), /--lease\b/);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test("a single-step action's input lease that is no lease's name: the hint names input lease, not a pipeline's lease:, which a single-step action has none of", async (t) => {
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-hints-store-')), 'store');
  mkdirSync(store);
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url, username: 'admin', password: 'admin', store: `file://${store}`, lease: 'ilog log' },
  });
  assert.equal(run.code, ExitCode.invalidInput, shown(run));
  assert.match(shown(run), /lease "ilog log": a lease's name is letters, digits/);
  assert.match(shown(run), /hint: input lease prod-fleet/);
  assert.doesNotMatch(shown(run), /pipeline|lease: \{|--lease\b/);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test('a step with no server to call: the hint names no --emulator, which the action has no input for', async () => {
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': UPDATE.replace(/^targets:\n.*\n/m, '').replace('target: prod, ', '') },
    inputs: { pipeline: 'release.yml' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(shown(run), /no server to call/);
  assert.match(
    shown(run),
    /hint: add a servers: block, or set ENGINE_URL \(with ENGINE_USERNAME and ENGINE_PASSWORD\) in the step's env:/,
  );
  assert.doesNotMatch(shown(run), /--emulator/);
});

test('a dry run (dry-run: true or live) whose input only names no instance: refused naming the input, not --only', async (t) => {
  const { url, emulator } = await startEmulator(t);
  for (const dryRun of ['true', 'live']) {
    const run = await runActionInProcess(ROOT, {
      files: { 'sites.yml': SITES },
      inputs: { pipeline: 'sites.yml', 'dry-run': dryRun, only: 'site=north' },
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, ExitCode.invalidInput, dryRun);
    assert.match(shown(run), /input only site=north: no instance has site=north/, dryRun);
    assert.doesNotMatch(shown(run), /--only\b/, dryRun);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test('a matrix of more instances than a step runs: the hint splits the fleet by input only, not --only', async () => {
  const values = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;
  const run = await runActionInProcess(ROOT, {
    files: { 'sites.yml': SITES.replace('{ site: [east, west] }', `{ site: ${values(101)}, part: ${values(100)} }`) },
    inputs: { pipeline: 'sites.yml' },
    env: {
      ENGINE_URL: 'http://127.0.0.1:9',
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      PROD_TOKEN: 'prod-token',
    },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(shown(run), /the matrix makes 10,100 instances/);
  assert.match(shown(run), /or split it: a step, or a CI job with input only, per part of the fleet/);
  assert.doesNotMatch(shown(run), /--only\b/);
});

test("a single-step action resumed with other inputs: the refusal says the step's inputs changed, never a pipeline file or vars, only and skip inputs it has none of", async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'POST', path: VFS, hang: true, times: 1 });
  const inputs = {
    url,
    username: 'admin',
    password: 'admin',
    'target-server': 'prod-db.example.com',
    'target-database': 'PROD',
    'target-token': 'prod-token',
    files: '1001',
  };
  const stop = new AbortController();
  const running = runActionInProcess(actionDef('vfs-update'), { inputs, signal: stop.signal });
  await until(() => emulator.count('POST', VFS) === 1);
  stop.abort();
  const cut = await running;
  assert.equal(cut.code, ExitCode.interrupted, cut.failed.join('\n'));
  const resumed = await runActionInProcess(actionDef('vfs-update'), {
    inputs: { ...inputs, message: 'hello', journal: cut.outputs.journal!, 'in-doubt': 'skip' },
  });
  assert.equal(resumed.code, ExitCode.invalidInput, resumed.failed.join('\n'));
  const said = runnerLog(resumed);
  assert.match(said, /cannot resume: the step's inputs changed since the journal's run/);
  assert.doesNotMatch(said, /pipeline file|vars, only and skip/);
  assert.doesNotMatch(said, CLI_WAY);
});

test('a var the pipeline neither declares nor reads, given in input vars: refused naming the input, never --var', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': UPDATE },
    inputs: { pipeline: 'release.yml', vars: 'nope=1' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.invalidInput, run.failed.join('\n'));
  const said = runnerLog(run);
  assert.match(said, /var "nope" \(vars input\): the pipeline neither declares nor reads it/);
  assert.doesNotMatch(said, CLI_WAY);
});
