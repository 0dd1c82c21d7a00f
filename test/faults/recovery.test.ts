// Recovery never re-sends an applied write without the operator's word. Each case runs the CLI
// process against the emulator, whose request log is the judge. A kill at each point of a call's
// life is what the write-ahead journal leaves on disk at that point: a prefix of the full journal
// cut at a record boundary (every record is on disk before the next one is written), so each kill
// point is checked exactly, whatever the machine's speed.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Release with a journal
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: alerts
    uses: monitoring/alerts
    with: { fail-on: none }
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: sync
    uses: replication/sync
`;

async function setup(t: TestContext, pipeline = PIPELINE) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-recovery-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, pipeline);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const sent = (suffix: string, method?: string) =>
    emulator.requests.filter((r) => r.path.endsWith(suffix) && (!method || r.method === method)).length;
  return { dir, file, env, emulator, sent, journal: join(dir, 'run.journal.jsonl') };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const record = (line: string) => JSON.parse(line) as { t: string; key?: string };

/** The journal as a kill right after its first record matching `match` leaves it. */
function cutAfter(journal: string, to: string, match: (r: { t: string; key?: string }) => boolean): void {
  const all = lines(journal);
  const at = all.findIndex((l) => match(record(l)));
  assert.ok(at >= 0, 'the record is in the journal');
  writeFileSync(to, `${all.slice(0, at + 1).join('\n')}\n`);
}

type JsonReport = {
  outcome: string;
  counts: { inDoubt: number; treatedAsApplied: number };
  steps: {
    id: string;
    name: string;
    outcome: string;
    durationMs: number | null;
    inDoubt: { method: string; path: string; status?: number } | null;
    decision: { decision: string; by: string } | null;
    resume: string | null;
    error: { code: string } | null;
  }[];
};
const jsonOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as JsonReport;

test(
  "a kill at each point of a write's life: report says what the journal proves, and resume never sends an applied write again",
  { timeout: 120_000 },
  async (t) => {
    const s = await setup(t);
    const full = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
    assert.equal(full.code, 0, full.stdout + full.stderr);
    const points: {
      point: string;
      match: (r: { t: string; key?: string }) => boolean;
      vfs: string;
      resumes: boolean;
    }[] = [
      {
        point: 'before send (its start recorded)',
        match: (r) => r.t === 'start' && r.key === 'id:vfs',
        vfs: 'NOT_FINISHED',
        resumes: true,
      },
      { point: 'after send', match: (r) => r.t === 'send' && r.key === 'id:vfs', vfs: 'IN_DOUBT', resumes: false },
      {
        point: 'after the status line',
        match: (r) => r.t === 'status' && r.key === 'id:vfs',
        vfs: 'IN_DOUBT',
        resumes: false,
      },
      {
        point: 'after the body',
        match: (r) => r.t === 'answer' && r.key === 'id:vfs',
        vfs: 'IN_DOUBT',
        resumes: false,
      },
      {
        point: 'after the end record',
        match: (r) => r.t === 'end' && r.key === 'id:vfs',
        vfs: 'success',
        resumes: true,
      },
    ];
    for (const p of points) {
      const journal = join(s.dir, `${p.point.replace(/\W+/g, '-')}.jsonl`);
      cutAfter(s.journal, journal, p.match);
      const report = await runCli(['report', journal, '--report-json', `${journal}.json`]);
      assert.equal(report.code, 1, `${p.point}: a killed run does not report success`);
      const vfs = jsonOf(`${journal}.json`).steps.find((x) => x.id === 'vfs')!;
      assert.equal(p.vfs === 'success' ? vfs.outcome : vfs.error?.code, p.vfs, `${p.point}: ${JSON.stringify(vfs)}`);
      if (p.vfs === 'IN_DOUBT') assert.equal(vfs.durationMs, null, 'the duration of an in-doubt instance is unknown');
      if (p.point !== 'after send' && p.vfs === 'IN_DOUBT')
        assert.equal(vfs.inDoubt?.status, 200, `${p.point}: the status the server sent is kept`);

      const updates = s.sent('/update/vfs');
      const resumed = await runCli(['run', s.file, '--resume', journal], { env: s.env });
      if (p.resumes) {
        assert.equal(resumed.code, 0, `${p.point}: ${resumed.stdout}${resumed.stderr}`);
        assert.equal(
          s.sent('/update/vfs') - updates,
          p.vfs === 'success' ? 0 : 1,
          `${p.point}: the update is sent again only when the journal proves it never left`,
        );
      } else {
        assert.equal(resumed.code, 2, `${p.point}: ${resumed.stdout}`);
        assert.match(resumed.stderr, /in doubt: "VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs/);
        assert.equal(s.sent('/update/vfs'), updates, `${p.point}: nothing is sent while the update is in doubt`);
      }
    }
  },
);

test('a 2xx whose body cannot be read is in doubt with its status, never "not sent": resume waits for the operator', async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', invalidJson: true, times: 1 });
  const first = await runCli(['run', s.file, '--journal', s.journal, '--report-json', join(s.dir, 'r.json')], {
    env: s.env,
  });
  assert.equal(first.code, 1, first.stdout);
  const vfs = jsonOf(join(s.dir, 'r.json')).steps.find((x) => x.id === 'vfs')!;
  assert.deepEqual(vfs.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs', status: 200 });
  assert.match(
    first.stdout,
    /in doubt: POST \/api\/devops\/v1\/update\/vfs was sent and was answered 200 but its answer could not be read/,
  );
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout);
  assert.equal(s.sent('/update/vfs'), 1, 'the applied update is not sent again');
});

test("--in-doubt skip is recorded as the operator's decision, never as a success, and a later resume can still retry it", async (t) => {
  const s = await setup(t);
  const full = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(full.code, 0);
  const journal = join(s.dir, 'killed.jsonl');
  cutAfter(s.journal, journal, (r) => r.t === 'send' && r.key === 'id:vfs');
  const skipped = await runCli(
    [
      'run',
      s.file,
      '--resume',
      journal,
      '--in-doubt',
      'skip',
      '--report-json',
      join(s.dir, 'skip.json'),
      '--summary',
      join(s.dir, 'skip.md'),
    ],
    { env: { ...s.env, USER: 'ops-jane' } },
  );
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  const report = jsonOf(join(s.dir, 'skip.json'));
  const vfs = report.steps.find((x) => x.id === 'vfs')!;
  assert.deepEqual(vfs.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs' });
  assert.equal(vfs.decision?.decision, 'skip');
  assert.equal(vfs.decision?.by, `ops-jane@${hostname()}`);
  assert.equal(report.counts.treatedAsApplied, 1);
  assert.match(
    readFileSync(join(s.dir, 'skip.md'), 'utf8'),
    /in doubt: treated as applied by the operator \(ops-jane@/,
  );
  assert.match(skipped.stdout, /1 treated as applied\b/);
  assert.match(readFileSync(journal, 'utf8'), /"t":"decision","key":"id:vfs","decision":"skip","by":"ops-jane@/);
  const before = s.sent('/update/vfs');
  // The operator learns it was not applied after all: a later resume sends it.
  const retried = await runCli(
    ['run', s.file, '--resume', journal, '--in-doubt', 'retry', '--report-json', join(s.dir, 'retry.json')],
    { env: s.env },
  );
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(s.sent('/update/vfs') - before, 1);
  assert.equal(jsonOf(join(s.dir, 'retry.json')).steps.find((x) => x.id === 'vfs')!.decision?.decision, 'retry');
});

test('resume runs the gates again before its first write, and its reports carry the whole release', async (t) => {
  const s = await setup(t);
  const full = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(full.code, 0);
  const journal = join(s.dir, 'killed.jsonl');
  cutAfter(s.journal, journal, (r) => r.t === 'end' && r.key === 'id:vfs');
  const alerts = s.sent('/alerts', 'GET');
  const resumed = await runCli(['run', s.file, '--resume', journal, '--report-json', join(s.dir, 'r.json')], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.sent('/alerts', 'GET') - alerts, 1, 'the gate ran again');
  const steps = jsonOf(join(s.dir, 'r.json')).steps;
  assert.deepEqual(
    steps.map((x) => [x.id, x.resume]),
    [
      ['alerts', 'resumed'],
      ['clear', 'earlier-run'],
      ['vfs', 'earlier-run'],
      ['sync', 'resumed'],
    ],
  );
  const vfs = steps.find((x) => x.id === 'vfs') as unknown as { figures: string; result: { report: string } };
  assert.match(vfs.figures, /inserts|updated|\d/, "the earlier run's figures are kept");
  assert.equal(typeof vfs.result.report, 'string', 'and its update report');
});

test("resume matches instances by identity: a step inserted at the top never makes an applied write run again; another pipeline's journal is refused even with --force", async (t) => {
  const s = await setup(t);
  const full = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(full.code, 0);
  const journal = join(s.dir, 'killed.jsonl');
  cutAfter(s.journal, journal, (r) => r.t === 'end' && r.key === 'id:vfs');
  writeFileSync(
    s.file,
    PIPELINE.replace('steps:\n', 'steps:\n  - uses: monitoring/engines\n    with: { min-online: 1 }\n'),
  );
  const refused = await runCli(['run', s.file, '--resume', journal], { env: s.env });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /the pipeline file changed/);
  const before = { clear: s.sent('/transaction-log/clear'), vfs: s.sent('/update/vfs') };
  const forced = await runCli(['run', s.file, '--resume', journal, '--force', '--report-json', join(s.dir, 'f.json')], {
    env: s.env,
  });
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.deepEqual(
    { clear: s.sent('/transaction-log/clear'), vfs: s.sent('/update/vfs') },
    before,
    'nothing applied is sent again',
  );
  assert.deepEqual(
    jsonOf(join(s.dir, 'f.json')).steps.map((x) => [x.id, x.outcome, x.resume]),
    [
      [null, 'success', 'resumed'],
      ['alerts', 'success', 'resumed'],
      ['clear', 'success', 'earlier-run'],
      ['vfs', 'success', 'earlier-run'],
      ['sync', 'success', 'resumed'],
    ],
  );

  const other = join(s.dir, 'other.yml');
  writeFileSync(other, 'version: 1\nname: Another\nsteps:\n  - id: lic\n    uses: licensing/check\n');
  const foreign = await runCli(['run', other, '--resume', journal, '--force'], { env: s.env });
  assert.equal(foreign.code, 2);
  assert.match(foreign.stderr, /the journal is of another pipeline \("Release with a journal"/);
});

test('a changed inventory is seen by resume: the step done on STAGING is not carried for PROD', async (t) => {
  const s = await setup(
    t,
    `version: 1
include: [inventory.yml]
steps:
  - id: vfs
    uses: update/vfs
    with: { target: site, files: [1001] }
  - uses: replication/sync
`,
  );
  writeFileSync(
    join(s.dir, 'inventory.yml'),
    'targets:\n  site: { server: staging-db.example.com, database: STAGING, token: "${{ secrets.SITE_TOKEN }}" }\n',
  );
  const env = { ...s.env, SITE_TOKEN: 'staging-token' };
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  const first = await runCli(['run', s.file, '--journal', s.journal], { env });
  assert.equal(first.code, 1, first.stdout);
  assert.match(first.stdout, /✔ \[1\/2\] VFS update site/);
  writeFileSync(
    join(s.dir, 'inventory.yml'),
    'targets:\n  site: { server: prod-db.example.com, database: PROD, token: "${{ secrets.SITE_TOKEN }}" }\n',
  );
  env.SITE_TOKEN = 'prod-token';
  const refused = await runCli(['run', s.file, '--resume', s.journal], { env });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /the included inventory\.yml changed/);
  const forced = await runCli(
    ['run', s.file, '--resume', s.journal, '--force', '--report-json', join(s.dir, 'f.json')],
    { env },
  );
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.match(forced.stdout, /its inputs changed since the journal's run/);
  assert.equal(s.sent('/update/vfs'), 2, 'the update was sent for PROD too');
  const vfs = jsonOf(join(s.dir, 'f.json')).steps[0] as unknown as { resume: string; target: string };
  assert.deepEqual([vfs.resume, vfs.target], ['resumed', 'PROD on prod-db.example.com']);
});

test('a torn last record is cut off before a resume appends, so every later report and resume reads the journal', async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  appendFileSync(s.journal, '{"t":"end","key":"id:sync","at":1,"ru');
  const torn = readFileSync(s.journal, 'utf8').split('\n').length;
  // Read as it is, before any resume cuts it: the report says what it left out, and still renders.
  const before = await runCli(['report', s.journal, '--report-json', join(s.dir, 'torn.json')]);
  assert.equal(before.code, 1, before.stdout + before.stderr);
  assert.equal(
    before.stderr.match(
      /warning: .*:(\d+): the last record is torn \(the run that wrote it was killed while writing it\); it is left out/,
    )?.[1],
    String(torn),
    before.stderr,
  );
  assert.equal(jsonOf(join(s.dir, 'torn.json')).outcome, 'failure');
  const verified = await runCli(['verify', s.journal], { env: s.env });
  assert.match(verified.stderr, /warning: .*: the last record is torn/);
  // A job's journal merged with the fleet's reports: the same warning, and the merged report still written.
  const merged = await runCli(['report', '--merge', s.journal, '--report-json', join(s.dir, 'merged.json')]);
  assert.match(merged.stderr, new RegExp(`warning: .*:${torn}: the last record is torn`), merged.stderr);
  assert.equal(jsonOf(join(s.dir, 'merged.json')).outcome, 'failure');
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /the last record was torn .*; it was cut off/);
  const report = await runCli(['report', s.journal]);
  assert.equal(report.code, 0, report.stdout + report.stderr);
  assert.equal(
    (await runCli(['run', s.file, '--resume', s.journal], { env: s.env })).code,
    0,
    'a later resume reads it too',
  );
});

test("one run at a time per journal: a live holder is named and refused; a dead one's lock is taken over", async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  writeFileSync(
    `${s.journal}.lock`,
    JSON.stringify({
      pid: process.ppid,
      host: hostname(),
      at: '2026-11-25T10:00:00Z',
      command: 'enginectl run release.yml',
    }),
  );
  const before = s.emulator.requests.length;
  const locked = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(locked.code, 2);
  assert.match(locked.stderr, new RegExp(`JOURNAL_LOCKED|in use by process ${process.ppid} on ${hostname()}`));
  assert.equal(s.emulator.requests.length, before, 'nothing was sent');
  writeFileSync(
    `${s.journal}.lock`,
    JSON.stringify({
      pid: 2 ** 22 + 12345,
      host: hostname(),
      at: '2026-11-25T10:00:00Z',
      command: 'enginectl run release.yml',
    }),
  );
  const stale = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(stale.code, 0, stale.stdout + stale.stderr);
  assert.match(stale.stdout, /its lock was left by process 4206649 .* which no longer runs; taken over/);
  assert.equal(existsSync(`${s.journal}.lock`), false, 'released at the end');
});

test("a resumed run's terminal says which instances were done in an earlier run, without that run's durations as if they ran now", async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stdout,
    /^✔ \[2\/4\] Clear the transaction log \(iLog\) {2}done in an earlier run {2}HTTP 200$/m,
  );
  assert.match(resumed.stdout, /^✔ \[3\/4\] VFS update prod {2}done in an earlier run {2}inserts /m);
  // Run now: the read (a gate runs again) and the sync that failed.
  assert.match(resumed.stdout, /^✔ \[1\/4\] Alerts {2}\d+ms/m);
  assert.match(resumed.stdout, /^✔ \[4\/4\] Sync replication {2}\d+ms/m);
});

test("run --resume --emulator warns before the run that the emulator does not hold what the journal's run wrote", async (t) => {
  const s = await setup(t);
  const env = { PROD_TOKEN: 'prod-token' };
  const first = await runCli(
    [
      'run',
      s.file,
      '--journal',
      s.journal,
      '--emulator',
      '--fault',
      'POST /api/devops/v1/replication/sync status=409 times=1',
    ],
    { env },
  );
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--emulator'], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const warning =
    /warning --resume with --emulator: the emulator starts from its sample state \(or --state\), not from what the journal's run left: the 2 instance\(s\) carried from it are not applied in it, so a check of what they wrote reads a state without them/;
  assert.match(resumed.stdout, warning);
  assert.ok(resumed.stdout.search(warning) < resumed.stdout.indexOf('running "'), 'said before the run');
});

test('a journal in a directory that does not exist yet: the directory is made, as for a report', async (t) => {
  const s = await setup(t);
  const journal = join(s.dir, 'journals', 'nightly', 'run.journal.jsonl');
  const r = await runCli(['run', s.file, '--journal', journal, '--report-json', join(s.dir, 'reports', 'run.json')], {
    env: s.env,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(lines(journal).length > 0, 'the journal holds the run');
  assert.equal(existsSync(`${journal}.lock`), false, 'released at the end');
});

test("a resume refused after taking over a dead run's lock says the takeover too", async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  writeFileSync(
    `${s.journal}.lock`,
    JSON.stringify({
      pid: 2 ** 22 + 12345,
      host: hostname(),
      at: '2026-11-25T10:00:00Z',
      command: 'enginectl run release.yml',
    }),
  );
  // The file changed since the journal's run: the resume is refused (exit 2), after the takeover.
  writeFileSync(s.file, PIPELINE.replace('fail-on: none', 'fail-on: critical'));
  const before = s.emulator.requests.length;
  const refused = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /RESUME_REFUSED|changed/);
  assert.match(
    refused.stdout + refused.stderr,
    /its lock was left by process 4206649 .* which no longer runs; taken over/,
  );
  assert.equal(existsSync(`${s.journal}.lock`), false, 'the lock it took over is released');
  assert.equal(s.emulator.requests.length, before, 'nothing was sent');
});

test('a lock path that is not a lock file (a directory) is named for what it is, not as a run starting', async (t) => {
  const s = await setup(t);
  mkdirSync(`${s.journal}.lock`);
  const r = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^enginectl: journal .*: cannot read its lock .*\.lock \(EISDIR\)\n {2}hint: remove \S+\.lock \(no lock enginectl writes is a directory\), then run again; nothing was run\n/,
  );
  assert.equal(s.emulator.requests.length, 0, 'nothing was sent');
});

test('a forged or damaged journal is refused at its line (exit 2); the outcome is computed from the instances, never read from a record', async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const good = lines(s.journal);
  const cases: [string, string[], RegExp][] = [
    ['null', [good[0]!, encodeLine({ t: 'end' }).trim()], /:2: not a journal record/],
    ['no run', [encodeLine({ t: 'start', key: 'x', at: 1, name: 'x' }).trim()], /no run record/],
    [
      'a run without instances',
      [encodeLine({ ...JSON.parse(good[0]!), instances: undefined, crc: undefined }).trim()],
      /:1: not a journal record \(instances/,
    ],
    ['an altered line', [good[0]!.replace('Release', 'Rel3ase'), ...good.slice(1)], /:1: a damaged record/],
  ];
  for (const [name, content, message] of cases) {
    const file = join(s.dir, `${name.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(file, `${content.join('\n')}\n`);
    const r = await runCli(['report', file]);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, message, name);
    assert.doesNotMatch(r.stderr, /internal error|at .*\.js:\d+/);
  }
  // A forged finish record saying success decides nothing: the sync failed.
  const forged = join(s.dir, 'forged.jsonl');
  writeFileSync(
    forged,
    `${good.filter((l) => !l.includes('"t":"finish"')).join('\n')}\n${encodeLine({ t: 'finish', at: Date.now(), outcome: 'success' })}`,
  );
  const r = await runCli(['report', forged, '--summary', join(s.dir, 'forged.md')]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /: failure in/);
});

test('the journal is no offline password check: its hashes are keyed with a per-journal salt', async (t) => {
  const s = await setup(t);
  assert.equal(
    (await runCli(['run', s.file, '--journal', s.journal, '--var', 'release=s3cret-var'], { env: s.env })).code,
    2,
    'an unknown --var is refused',
  );
  const withVar = PIPELINE.replace(
    'name: Release with a journal',
    'name: Release with a journal\nvars: { release: x }',
  );
  writeFileSync(s.file, withVar);
  assert.equal(
    (await runCli(['run', s.file, '--journal', s.journal, '--var', 'release=s3cret-var'], { env: s.env })).code,
    0,
  );
  const run = JSON.parse(lines(s.journal)[0]!) as { salt: string; hash: string; varsHash: string };
  assert.match(run.salt, /^[0-9a-f]{32}$/);
  const { createHash } = await import('node:crypto');
  const plain = (text: string) => createHash('sha256').update(text).digest('hex');
  const text = readFileSync(s.journal, 'utf8');
  for (const guess of [withVar, JSON.stringify([['release', 's3cret-var']]), 's3cret-var'])
    assert.equal(text.includes(plain(guess)), false);
  assert.equal(text.includes('s3cret-var'), true, 'a --var value is no secret: shown as given');
});
