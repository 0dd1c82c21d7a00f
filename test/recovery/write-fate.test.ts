// A write's fate (src/api/fate.ts) as the runner, the journal, resume and report read it: each
// attempt is not sent, refused, applied or unknown from what came back alone, and an instance is
// in doubt when any attempt may have applied its write. The emulator's request log is the judge
// of what was applied: a write the server applied is never sent again without the operator's word.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { encodeLine } from '../../src/journal/frame.ts';

const head = (name: string) => `version: 1
name: ${name}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;

async function setup(t: TestContext, steps: string, gateway?: (method: string, path: string) => number | undefined) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, head('Write fate') + steps);
  const server = gateway ? await gatewayInFront(t, url, gateway) : url;
  const env = { ENGINE_URL: server, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  /** Writes the API handled and answered 2xx: applied, whatever reached the client. */
  const applied = (suffix: string) =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix) && r.status >= 200 && r.status < 300)
      .length;
  return { dir, file, env, emulator, applied, journal: join(dir, 'run.journal.jsonl') };
}

type Step = {
  id: string;
  outcome: string;
  inDoubt: { method: string; path: string; status?: number } | null;
  decision: { decision: string; by: string } | null;
  error: { code: string; message: string } | null;
  attempts: number;
};
const stepOf = (path: string, id: string) =>
  (JSON.parse(readFileSync(path, 'utf8')) as { steps: Step[] }).steps.find((s) => s.id === id)!;

test('a retry never erases the doubt of the attempt before it: an applied write cut after the server acted, then a 503, is in doubt and never sent a third time', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
    retry: { attempts: 2, delay: 1ms }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 503, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const vfs = stepOf(`${s.journal}.json`, 'vfs');
  assert.equal(vfs.inDoubt?.path, '/api/devops/v1/update/vfs', 'the cut attempt leaves the step in doubt');
  assert.equal(vfs.attempts, 1, 'an attempt the server may have applied is not followed by another');
  assert.match(run.stdout + run.stderr, /not retried/);
  assert.equal(s.applied('/update/vfs'), 1);

  const report = await runCli(['report', s.journal, '--report-json', `${s.journal}.report.json`]);
  assert.equal(
    stepOf(`${s.journal}.report.json`, 'vfs').inDoubt?.path,
    '/api/devops/v1/update/vfs',
    'report reads the same fate from the journal',
  );
  assert.equal(report.code, 1);

  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /in doubt/);
  assert.equal(s.applied('/update/vfs'), 1, 'the applied write was not sent again');
});

test(`retry: { in-doubt: retry } sends again after an attempt in doubt, says so as the pipeline's decision, and the doubt stays`, async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 503, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const vfs = stepOf(`${s.journal}.json`, 'vfs');
  assert.equal(vfs.attempts, 2);
  assert.ok(vfs.inDoubt, 'a 503 after an applied attempt says nothing of the first: still in doubt');
  assert.equal(vfs.decision?.decision, 'retry');
  assert.match(vfs.decision?.by ?? '', /pipeline/);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/update/vfs'), 1);
});

test('a write applied after an attempt in doubt is applied, and said to be maybe applied twice', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const vfs = stepOf(`${s.journal}.json`, 'vfs') as Step & { warnings: string[] };
  assert.equal(vfs.inDoubt, null);
  assert.ok(
    vfs.warnings.some((w) => /maybe applied twice/.test(w)),
    JSON.stringify(vfs.warnings),
  );
  assert.equal(s.applied('/update/vfs'), 2, 'the emulator applied both: what the warning says');
});

for (const status of [408, 500, 502, 503, 504]) {
  test(`a gateway's ${status} page after the API applied the write is not the API's word: in doubt, and resume does not send it again`, async (t) => {
    const s = await setup(
      t,
      `  - id: system
    uses: update/system
    with: { target: prod, products: [1] }
`,
      (method, path) => (method === 'POST' && path === '/api/devops/v1/update/system' ? status : undefined),
    );
    const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
      env: s.env,
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const system = stepOf(`${s.journal}.json`, 'system');
    assert.equal(system.inDoubt?.status, status, JSON.stringify(system));
    const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /in doubt/);
    assert.equal(s.applied('/update/system'), 1);
  });
}

test(`the API's own refusal (a 4xx in its shape) is not in doubt: resume sends the write again`, async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(stepOf(`${s.journal}.json`, 'vfs').inDoubt, null);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/update/vfs'), 1);
});

test(`the journal's lock is the file's, not its spelling's: a resume through a symbolic link is refused while the journal is held`, async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const link = join(s.dir, 'link.jsonl');
  symlinkSync(s.journal, link);
  // Another resume holds the journal, by its own name: a live process (not this one: a lock naming this
  // process is one it left before, under the same pid, when it does not hold it now).
  writeFileSync(
    `${s.journal}.lock`,
    JSON.stringify({
      pid: process.ppid,
      host: hostname(),
      at: '2026-11-26T10:00:00Z',
      command: 'enginectl run release.yml --resume run.journal.jsonl',
    }),
  );
  const before = s.emulator.requests.length;
  const viaLink = await runCli(['run', s.file, '--resume', link], { env: s.env });
  assert.equal(viaLink.code, 2, viaLink.stdout + viaLink.stderr);
  assert.match(viaLink.stderr, new RegExp(`in use by process ${process.ppid}`));
  assert.equal(s.emulator.requests.length, before, 'nothing was sent');
});

test('a stale lock is taken over by one run only: while another run is taking it over, the next is refused', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const dead = JSON.stringify({
    pid: 2 ** 22 + 12345,
    host: hostname(),
    at: '2026-11-26T10:00:00Z',
    command: 'enginectl run release.yml',
  });
  writeFileSync(`${s.journal}.lock`, dead);
  // A run that found the same stale lock first holds the takeover.
  writeFileSync(`${s.journal}.lock.takeover`, JSON.stringify({ pid: process.pid, host: hostname() }));
  const second = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(second.code, 2, second.stdout + second.stderr);
  assert.match(second.stderr, /another run is taking it over/);
  assert.equal(s.applied('/update/vfs'), 0);
  unlinkSync(`${s.journal}.lock.takeover`);
  const third = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(third.code, 0, third.stdout + third.stderr);
  assert.match(third.stdout, /taken over/);
  assert.equal(existsSync(`${s.journal}.lock`), false);
});

const CUT_VFS = `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

test('the same job run again on its journal refuses while the journal holds a call in doubt: it is never sent again unannounced', async (t) => {
  const s = await setup(t, CUT_VFS);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const again = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(
    again.stderr,
    /left a call in doubt: "VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs, answered 200\); a new run on it would send it again/,
  );
  assert.equal(s.applied('/update/vfs'), 1);
  const report = await runCli(['report', s.journal, '--report-json', `${s.journal}.json`]);
  assert.equal(report.code, 1, 'the journal still reports the doubt, not a success');
  assert.ok(stepOf(`${s.journal}.json`, 'vfs').inDoubt);
  // Decided (the operator checked: applied), a new run on the same journal goes ahead.
  assert.equal((await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip'], { env: s.env })).code, 0);
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 0);
  assert.equal(s.applied('/update/vfs'), 2, 'the new release sends its update once');
});

test('--force never drops a call in doubt: a step renamed since is named and refused until decided', async (t) => {
  const s = await setup(
    t,
    `  - id: alerts
    uses: monitoring/alerts
    with: { fail-on: none }
${CUT_VFS}`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('id: vfs', 'id: vfs-files'));
  const forced = await runCli(['run', s.file, '--resume', s.journal, '--force'], { env: s.env });
  assert.equal(forced.code, 2, forced.stdout + forced.stderr);
  assert.match(
    forced.stderr,
    /no longer in the file .*"VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs, answered 200\)/,
  );
  assert.equal(s.applied('/update/vfs'), 1);
  const decided = await runCli(['run', s.file, '--resume', s.journal, '--force', '--in-doubt', 'retry'], {
    env: s.env,
  });
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.equal(s.applied('/update/vfs'), 2, "sent again on the operator's word");
});

test('a resume with --only in between keeps the doubt of the instance it did not select: the next resume of every target refuses', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    matrix: { target: [staging, prod] }
    max-parallel: 1
    fail-fast: false
    with: { target: "\${{ matrix.target }}", files: [1001] }
`,
  );
  writeFileSync(
    s.file,
    readFileSync(s.file, 'utf8').replace(
      'targets:\n',
      'targets:\n  staging: { server: staging-db.example.com, database: STAGING, token: "${{ secrets.PROD_TOKEN }}" }\n',
    ),
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  assert.equal(s.applied('/update/vfs'), 1, 'STAGING applied (its answer cut), PROD refused');
  const prod = await runCli(['run', s.file, '--resume', s.journal, '--only', 'target=prod', '--force'], { env: s.env });
  assert.equal(prod.code, 0, prod.stdout + prod.stderr);
  assert.match(prod.stdout + prod.stderr, /stays in doubt: it is not selected in this run/);
  assert.equal(s.applied('/update/vfs'), 2);
  const all = await runCli(['run', s.file, '--resume', s.journal, '--force'], { env: s.env });
  assert.equal(all.code, 2, all.stdout + all.stderr);
  assert.match(all.stderr, /in doubt: "VFS update \(target=staging\)"/);
  assert.equal(s.applied('/update/vfs'), 2, 'STAGING was not updated twice');
});

test('a journal sealed with ENGINECTL_JOURNAL_KEY refuses a forged record (its CRC recomputed) at its line; without the key it is trusted as a file', async (t) => {
  const s = await setup(t, CUT_VFS);
  const key = { ...s.env, ENGINECTL_JOURNAL_KEY: 'a-ci-secret-of-32-characters-00' };
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  assert.equal(
    (await runCli(['run', s.file, '--journal', s.journal], { env: key })).code,
    1,
    'the API refused the update',
  );
  assert.equal(s.applied('/update/vfs'), 0);
  // Downloaded from an artifact and edited: the refused update made a success, its CRC recomputed.
  const records = readFileSync(s.journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { t: string; run?: Record<string, unknown> });
  const forged = records.map(({ crc: _crc, mac, ...r }) =>
    r.t === 'end' ? { ...r, run: { ...r.run, outcome: 'success', error: undefined }, mac } : { ...r, mac },
  );
  const { encodeLine } = await import('../../src/journal/frame.ts');
  const copy = join(s.dir, 'forged.jsonl');
  writeFileSync(copy, forged.map((r) => encodeLine(r)).join(''));
  const refused = await runCli(['run', s.file, '--resume', copy], { env: key });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /forged\.jsonl:\d+: a record whose seal is not that of this key/);
  const report = await runCli(['report', copy], { env: key });
  assert.equal(report.code, 2, report.stdout + report.stderr);
  // Appending to a sealed journal without its key would leave records no one can authenticate.
  const keyless = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(keyless.code, 2, keyless.stdout + keyless.stderr);
  assert.match(keyless.stderr, /sealed with a key \(ENGINECTL_JOURNAL_KEY\), which is not set/);
  // The genuine journal resumes with its key: the update is sent, once.
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: key });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/update/vfs'), 1);
  assert.equal(
    (await runCli(['report', s.journal], { env: key })).code,
    0,
    "the resumed records chain to the first run's",
  );
});

test('no write leaves unjournaled: for every step type that writes, its send record is in the journal before the request reaches the server', async (t) => {
  const { STEP_CASES } = await import('../helpers/step-cases.ts');
  const { STEP_TYPES, isReadOnly } = await import('../../src/steps/registry.ts');
  const { parse } = await import('yaml');
  const writes = STEP_CASES.filter(
    (c) => !isReadOnly(STEP_TYPES.get(c.uses)!, parse(c.with) as Record<string, unknown>),
  );
  // Every registered step type that can write has a case here: a new one cannot slip past.
  const writers = [...STEP_TYPES.values()].filter((type) => type.readOnly !== true).map((type) => type.uses);
  assert.deepEqual([...new Set(writes.map((c) => c.uses))].sort(), writers.sort());
  for (const c of writes) {
    const { url, emulator } = await startEmulator(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-ahead-'));
    const journal = join(dir, 'run.journal.jsonl');
    const seen: string[] = [];
    const problems: string[] = [];
    const proxy = await gatewayInFront(
      t,
      url,
      () => undefined,
      (method, path) => {
        if (method === 'GET') return;
        seen.push(`${method} ${path}`);
        const sends = readFileSync(journal, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { t: string; method?: string; path?: string })
          .filter((r) => r.t === 'send');
        if (sends.length !== seen.length || `${sends.at(-1)?.method} ${sends.at(-1)?.path}` !== seen.at(-1))
          problems.push(
            `${c.uses}: ${seen.at(-1)} reached the server with ${sends.length} send record(s) for ${seen.length} write(s)`,
          );
      },
    );
    const file = join(dir, 'step.yml');
    writeFileSync(file, `${head(c.uses)}  - uses: ${c.uses}\n    with: ${c.with}\n`);
    const r = await runCli(['run', file, '--journal', journal], {
      env: { ENGINE_URL: proxy, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
    });
    assert.notEqual(r.code, 2, r.stdout + r.stderr);
    assert.ok(seen.length > 0, `${c.uses} wrote`);
    assert.equal(emulator.requests.filter((q) => q.method !== 'GET').length, seen.length);
    assert.deepEqual(problems, []);
  }
});

/** The journal with every record moved `age` ms into the past (a call long enough ago for verify to decide). */
function aged(journal: string, age: number): string {
  const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
  const kept = lines.map((l) => {
    const { crc: _crc, ...r } = JSON.parse(l) as Record<string, unknown>;
    return typeof r.at === 'number' ? { ...r, at: r.at - age } : r;
  });
  const to = `${journal}.aged.jsonl`;
  writeFileSync(to, kept.map((r) => encodeLine(r)).join(''));
  return to;
}

test('a create whose first attempt a gateway cut (504, applied) and whose retry was refused (409): verify reads the target as before the first attempt, says applied, and verify-and-retry sends nothing', async (t) => {
  const s = await setup(
    t,
    `  - id: create
    uses: classes/create
    longest: 1m
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New } }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/classes/*', gateway: 504, times: 1 });
  s.emulator.faults.add({ method: 'POST', path: '/api/classes/*', status: 409, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(stepOf(`${s.journal}.json`, 'create').inDoubt?.status, 504);
  const created = () => s.emulator.state.entities.filter((e) => e.iname === 'mnew').length;
  assert.equal(created(), 1, 'the first attempt created it');
  const old = aged(s.journal, 3 * 60_000);
  const verified = await runCli(['verify', old], { env: s.env });
  assert.match(verified.stdout, /^applied /m, verified.stdout + verified.stderr);
  assert.doesNotMatch(verified.stdout, /not-applied/);
  const resumed = await runCli(['run', s.file, '--resume', old, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(created(), 1, 'not created a second time');
  assert.deepEqual(
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/entities')).map((r) => r.status),
    [504, 409],
    'no third POST',
  );
});

/** `run` interrupted once the journal holds the answer of the step's first write (or `until`): in the retry's wait (or just before it). */
async function interruptedInRetryWait(s: Awaited<ReturnType<typeof setup>>, env = s.env, until = '"t":"answer"') {
  const stop = new AbortController();
  const json = `${s.journal}.json`;
  const summary = `${s.journal}.md`;
  const run = runCli(['run', s.file, '--journal', s.journal, '--report-json', json, '--summary', summary], {
    env,
    signal: stop.signal,
  });
  const answered = () => existsSync(s.journal) && readFileSync(s.journal, 'utf8').includes(until);
  // Until the answer is recorded, or the run ended (which fails the test below instead of hanging it).
  let ended = false;
  void run.then(() => (ended = true));
  while (!answered() && !ended) await new Promise((resolve) => setTimeout(resolve, 20));
  stop.abort();
  return { run: await run, json, summary };
}

test("interrupted in the wait before a retry, after an update the server answered 200 with success: false: the journal holds the step's reading (refused), so live and read back it is not in doubt, and resume sends it again as the retry would have", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    retry: { attempts: 2, delay: 30s }
    with: { target: prod, files: [1001] }
`,
  );
  const { run, json } = await interruptedInRetryWait(s, { ...s.env, PROD_TOKEN: 'wrong-token' }, '"refused":true');
  assert.notEqual(run.code, 0, run.stdout + run.stderr);
  const live = stepOf(json, 'vfs');
  assert.equal(live.inDoubt, null, run.stdout + run.stderr);
  assert.equal(live.attempts, 1);
  await runCli(['report', s.journal, '--report-json', `${s.journal}.report.json`]);
  assert.equal(stepOf(`${s.journal}.report.json`, 'vfs').inDoubt, null, 'the journal reads the same');
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/update/vfs'), 2, 'the refused update sent again, as its retry would have');
});

test("interrupted in the wait before a retry the pipeline's in-doubt: retry allows: in doubt, and no report says it was sent again", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    retry: { attempts: 2, delay: 30s, in-doubt: retry }
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const { run, json, summary } = await interruptedInRetryWait(s);
  assert.notEqual(run.code, 0, run.stdout + run.stderr);
  const live = stepOf(json, 'vfs');
  assert.equal(live.attempts, 1);
  assert.equal(live.inDoubt?.status, 504);
  assert.equal(live.error?.code, 'IN_DOUBT');
  assert.equal(live.decision, null, 'the retry was decided, never made');
  assert.doesNotMatch(readFileSync(summary, 'utf8'), /sent again/);
  assert.equal(s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length, 1);
});

test('a continue-on-error step that left its write in doubt: the run goes on, its outcome a success, but it exits 1 saying a doubt is not a failure to let pass, as report of its journal does', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    continue-on-error: true
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const run = await runCli(
    [
      'run',
      s.file,
      '--journal',
      s.journal,
      '--report-json',
      `${s.journal}.json`,
      '--summary',
      `${s.journal}.md`,
      '--html',
      `${s.journal}.html`,
    ],
    { env: s.env },
  );
  assert.equal(run.code, 1, run.stdout + run.stderr);
  // What a person reads first says so too: not "✅ success" over a job that exits 1.
  const summary = readFileSync(`${s.journal}.md`, 'utf8');
  assert.match(summary, /^## ⚠️ .+: in doubt$/m);
  assert.doesNotMatch(summary, /continue-on-error let them pass/);
  assert.match(readFileSync(`${s.journal}.html`, 'utf8'), /<h1>[^<]*: in doubt<\/h1>/);
  assert.match(run.stdout, /^pipeline "[^"]*": in doubt in /m);
  assert.match(
    run.stdout,
    /^✖ 1 step run\(s\) left a write in doubt: continue-on-error lets a failure pass, not a doubt; check it on the server, or decide it from the run's journal \(run --resume JOURNAL --in-doubt skip\|retry\|verify\)$/m,
  );
  // A gateway's page was read: it says nothing of what the server did (not "could not be read").
  assert.match(
    run.stdout,
    /^ {4}in doubt: POST \/api\/devops\/v1\/update\/vfs was sent and was answered 504, which does not say what the server did; the server may have applied it$/m,
  );
  assert.equal(stepOf(`${s.journal}.json`, 'clear').outcome, 'success', 'the run went on');
  const report = await runCli(['report', s.journal]);
  assert.equal(report.code, 1, 'report of its journal exits the same');
});

test("a continue-on-error step whose write the pipeline's in-doubt: retry sent again, in doubt both times: the retry settles nothing, run and report exit 1 as resume refuses", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    continue-on-error: true
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 2 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(stepOf(`${s.journal}.json`, 'vfs').decision?.decision, 'retry');
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal((await runCli(['report', s.journal])).code, 1);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
});

test("a create whose first read of the target (verify's snapshot) the step's timeout cut: the retry reads it before its write, and verify decides the 504 from it", async (t) => {
  const s = await setup(
    t,
    `  - id: create
    uses: classes/create
    timeout: 15s
    longest: 1m
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New } }
`,
  );
  // The first attempt's read hangs until the step's timeout cuts it: nothing is sent then.
  s.emulator.faults.add({ method: 'GET', path: '/api/classes/*', hang: true, times: 1 });
  s.emulator.faults.add({ method: 'POST', path: '/api/classes/*', gateway: 504, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const snapshots = readFileSync(s.journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; value?: unknown })
    .filter((r) => r.t === 'snapshot');
  assert.equal(snapshots.length, 1, 'read once, before the write');
  assert.ok(snapshots[0]!.value !== undefined, 'its value recorded');
  const verified = await runCli(['verify', aged(s.journal, 3 * 60_000)], { env: s.env });
  assert.match(verified.stdout, /^applied /m, verified.stdout + verified.stderr);
});

test("in a rollout, a value whose write the pipeline's in-doubt: retry sent again, in doubt both times, under continue-on-error, fails in its wave: the next wave does not start", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    matrix: { n: [a, b] }
    continue-on-error: true
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { target: prod, files: [1001], tracking-id: "T-\${{ matrix.n }}" }
`,
  );
  writeFileSync(
    s.file,
    readFileSync(s.file, 'utf8').replace(
      'steps:\n',
      'rollout:\n  over: n\n  waves: [[a], rest]\n  max-failures: 0\nsteps:\n',
    ),
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 2 });
  const run = await runCli(['run', s.file, '--report-json', `${s.journal}.json`], { env: s.env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(`${s.journal}.json`, 'utf8')) as {
    rollout: { waves: { outcome: string; failed: string[] }[] };
  };
  assert.deepEqual(
    report.rollout.waves.map((w) => [w.outcome, w.failed]),
    [
      ['halted', ['a']],
      ['not-started', []],
    ],
  );
  assert.equal(s.emulator.requests.filter((r) => r.method === 'POST').length, 2, 'b was never sent');
});

/** Two targets updated one at a time (max-parallel: 1, fail-fast): prod waits behind staging. */
const oneAtATime = (name: string, inputs: string, after = '') => `version: 1
name: ${name}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, token: staging-token }
steps:
  - id: up
    name: Update \${{ matrix.t }}
    uses: update/system
    matrix: { t: [staging, prod] }
    max-parallel: 1
    with: ${inputs}
${after}`;

test('a matrix instance fail-fast cancelled before it started is in the journal as the run left it: report of the journal says failure (FAIL_FAST), as the run did, not cancelled, and resume runs it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, oneAtATime('Fail fast', '{ target: "${{ matrix.t }}" }'));
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, times: 1 });
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const run = await runCli(['run', file, '--journal', journal, '--report-json', join(dir, 'live.json')], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const report = await runCli(['report', journal, '--report-json', join(dir, 'read.json')]);
  assert.equal(report.code, 1, report.stdout + report.stderr);
  const seen = (path: string) => {
    const r = JSON.parse(readFileSync(path, 'utf8')) as { outcome: string; steps: Step[] };
    return [r.outcome, r.steps.map((s) => [s.outcome, s.error?.code ?? null])];
  };
  assert.deepEqual(seen(join(dir, 'live.json')), [
    'failure',
    [
      ['failure', 'API_HTTP_STATUS'],
      ['cancelled', 'FAIL_FAST'],
    ],
  ]);
  assert.deepEqual(seen(join(dir, 'read.json')), seen(join(dir, 'live.json')), 'the journal read back says the same');
  const resumed = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.status === 200)
      .length,
    2,
    'resume ran both: the refused one and the one fail-fast never started',
  );
});

test("a later resume's reports keep the operator's earlier --continue-rollout, as report of the journal does", async (t) => {
  const s = await setup(
    t,
    `  - id: rec
    uses: classes/create
    matrix: { t: [x, y] }
    with: { class: 30, fields: { iname: "REL-\${{ matrix.t }}", irelease: "1", itarget: prod, ioutcome: success, imessage: hi } }
`,
  );
  writeFileSync(
    s.file,
    readFileSync(s.file, 'utf8').replace(
      'steps:\n',
      'rollout:\n  over: t\n  waves: [[x], [y]]\n  max-failures: 0\nsteps:\n',
    ),
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/classes/v1/classes/30/entities', status: 400, times: 1 });
  const first = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /the rollout halted at wave 1/);
  const decisions = (path: string) =>
    (JSON.parse(readFileSync(path, 'utf8')) as { decisions: { decision: string; wave: number }[] }).decisions.map(
      (d) => [d.decision, d.wave],
    );
  const going = await runCli(
    ['run', s.file, '--resume', s.journal, '--continue-rollout', '--report-json', join(s.dir, 'r1.json')],
    { env: s.env },
  );
  assert.equal(going.code, 0, going.stdout + going.stderr);
  assert.deepEqual(decisions(join(s.dir, 'r1.json')), [['continue-rollout', 1]]);
  const again = await runCli(['run', s.file, '--resume', s.journal, '--report-json', join(s.dir, 'r2.json')], {
    env: s.env,
  });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  await runCli(['report', s.journal, '--report-json', join(s.dir, 'read.json')]);
  assert.deepEqual(decisions(join(s.dir, 'read.json')), [['continue-rollout', 1]], 'the journal keeps it');
  assert.deepEqual(decisions(join(s.dir, 'r2.json')), decisions(join(s.dir, 'read.json')), 'and so does the run');
});

test('a carried instance fail-fast passes over on a resume keeps its end: the next resume still carries it and never sends its applied write again', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  const pipeline = (tracking: string) =>
    oneAtATime(
      'Fail fast on a resume',
      `{ target: "\${{ matrix.t }}", tracking-id: "\${{ matrix.t == 'staging' && '${tracking}' || 'REL-1' }}" }`,
      '  - id: after\n    uses: api/request\n    with: { path: /api/licensing/v1/products/999 }\n',
    );
  writeFileSync(file, pipeline('REL-1'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const updates = () =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.status === 200)
      .length;
  const first = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.equal(updates(), 2, 'both applied; the step after failed');
  // Staging's inputs change: it runs again and is refused; prod, done, waits behind it (fail-fast).
  writeFileSync(file, pipeline('REL-2'));
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, times: 1 });
  const second = await runCli(['run', file, '--resume', journal, '--force'], { env });
  assert.equal(second.code, 1, second.stdout + second.stderr);
  // Staging runs again and is applied; prod is still carried.
  const third = await runCli(['run', file, '--resume', journal, '--force'], { env });
  assert.equal(updates(), 3, "staging's update once more; prod's never again");
  assert.match(third.stdout, /Update prod\b.*done in an earlier run/);
});

test('a carried instance whose inputs changed, fail-fast passes over on a --force resume: shown not started, not done in an earlier run, and the next resume sends it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  const pipeline = (tracking: string) =>
    oneAtATime(
      'Fail fast on a changed resume',
      `{ target: "\${{ matrix.t }}", tracking-id: "${tracking}" }`,
      '  - id: after\n    uses: api/request\n    with: { path: /api/licensing/v1/products/999 }\n',
    );
  writeFileSync(file, pipeline('REL-1'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const updates = () =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.status === 200)
      .length;
  const first = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.equal(updates(), 2, 'both applied; the step after failed');
  // Both updates' inputs change (REL-2): staging runs again and is refused; prod waits behind it (fail-fast).
  writeFileSync(file, pipeline('REL-2'));
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, times: 1 });
  const json = join(dir, 'second.json');
  const second = await runCli(['run', file, '--resume', journal, '--force', '--report-json', json], { env });
  assert.equal(second.code, 1, second.stdout + second.stderr);
  // Its REL-2 update was never sent: not done in an earlier run (that run sent REL-1).
  assert.doesNotMatch(second.stdout, /Update prod\b.*done in an earlier run/);
  const prod = (
    JSON.parse(readFileSync(json, 'utf8')) as {
      steps: { name: string; outcome: string; error?: { code: string } | null }[];
    }
  ).steps.find((s) => s.name === 'Update prod')!;
  assert.deepEqual([prod.outcome, prod.error?.code], ['cancelled', 'FAIL_FAST']);
  // The next resume sends both REL-2 updates.
  const third = await runCli(['run', file, '--resume', journal, '--force'], { env });
  assert.equal(updates(), 4, third.stdout + third.stderr);
});

test("a write the server applied (201) that the step then failed on its own check (expect-status: 200) is in doubt: retry does not send it again, report and resume read the same, and only the operator's decision sends it again", async (t) => {
  const s = await setup(
    t,
    `  - id: create
    uses: api/request
    retry: { attempts: 3, delay: 1ms }
    with:
      method: POST
      path: /api/classes/v1/classes/12/entities
      body: [{ iname: mnew, ifullname: Mary New }]
      expect-status: [200]
`,
  );
  const created = () => s.emulator.state.entities.filter((e) => e.iname === 'mnew').length;
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(created(), 1, 'the retry did not create it again');
  const live = stepOf(`${s.journal}.json`, 'create');
  assert.equal(live.attempts, 1);
  assert.deepEqual(live.inDoubt, {
    method: 'POST',
    path: '/api/classes/v1/classes/12/entities',
    status: 201,
    applied: true,
  });
  assert.match(run.stdout + run.stderr, /not retried: POST \/api\/classes\/v1\/classes\/12\/entities was answered 201/);

  await runCli(['report', s.journal, '--report-json', `${s.journal}.report.json`]);
  assert.deepEqual(stepOf(`${s.journal}.report.json`, 'create').inDoubt, live.inDoubt, 'the journal reads the same');
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /in doubt/);
  const again = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /answered 201; its step did not end in success/);
  // A journal of an earlier version ended the step with no doubt: its attempts say it was applied.
  const earlier = `${s.journal}.earlier.jsonl`;
  writeFileSync(
    earlier,
    readFileSync(s.journal, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const { crc: _crc, ...r } = JSON.parse(l) as { crc: unknown; t: string; run?: Record<string, unknown> };
        if (r.t === 'end') delete r.run!.inDoubt;
        return encodeLine(r);
      })
      .join(''),
  );
  const fromEarlier = await runCli(['run', s.file, '--resume', earlier], { env: s.env });
  assert.equal(fromEarlier.code, 2, fromEarlier.stdout + fromEarlier.stderr);
  assert.equal(created(), 1, 'neither resume nor the same job again sent it unasked');
  // verify says what the read answer says, and leaves the step's own failure to the operator:
  // --in-doubt verify-and-retry neither sends it again nor goes on past the failed check.
  s.emulator.state.entities = s.emulator.state.entities.filter((e) => e.iname !== 'mnew');
  const verified = await runCli(['verify', s.journal], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell .*answered 201 and the answer was read: the server applied it/m,
    verified.stdout + verified.stderr,
  );
  const byVerify = await runCli(['run', s.file, '--resume', aged(s.journal, 0), '--in-doubt', 'verify-and-retry'], {
    env: s.env,
  });
  assert.equal(byVerify.code, 2, byVerify.stdout + byVerify.stderr);
  assert.equal(created(), 0, 'verify-and-retry did not send it again, though the entity is gone since');

  const skipped = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip'], { env: s.env });
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.match(skipped.stdout, /1 treated as applied/);
  assert.equal(created(), 0, '--in-doubt skip treats it as applied');
  const retried = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'retry'], { env: s.env });
  assert.equal(retried.code, 1, retried.stdout + retried.stderr);
  assert.equal(created(), 1, "--in-doubt retry sends it again: the operator's word");
});

test("an update retried after a gateway's 504 and answered 200 with success: false is refused, not maybe applied twice: it stays in doubt for the 504 alone", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: { ...s.env, PROD_TOKEN: 'wrong-token' },
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.doesNotMatch(run.stdout + run.stderr, /maybe applied twice/);
  const vfs = stepOf(`${s.journal}.json`, 'vfs');
  assert.equal(vfs.attempts, 2);
  assert.deepEqual(vfs.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs', status: 504 });
});

test("a 400 whose body is not the API's (not JSON) is in doubt, and its hint does not say the server refused it", async (t) => {
  const s = await setup(
    t,
    `  - id: clear
    uses: transaction-log/clear
`,
  );
  s.emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    status: 400,
    body: '{oops',
    contentType: 'application/json',
  });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const clear = stepOf(`${s.journal}.json`, 'clear') as Step & { error: { hint?: string } };
  assert.equal(clear.inDoubt?.status, 400, "not the API's answer: in doubt");
  assert.doesNotMatch(clear.error.hint ?? '', /refused/);
  assert.match(clear.error.hint ?? '', /not the API's/);
});

test("a replication sync's 500 whose body is not its documented result array is no refusal: in doubt, and resume does not send it again", async (t) => {
  const s = await setup(
    t,
    `  - id: sync
    uses: replication/sync
    with: { config: 1 }
`,
  );
  const path = '/api/devops/v1/replication/configs/1/sync';
  s.emulator.faults.add({ method: 'POST', path, status: 500, body: '{"error": "internal"}', times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(stepOf(`${s.journal}.json`, 'sync').inDoubt?.status, 500, run.stdout + run.stderr);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.equal(s.emulator.requests.filter((r) => r.method === 'POST' && r.path === path).length, 1);
});

test("a replication sync's documented 500 (its result array, a replication failed) is the API's refusal: not in doubt, and resume sends it again", async (t) => {
  const s = await setup(
    t,
    `  - id: sync
    uses: replication/sync
    with: { config: 1 }
`,
  );
  s.emulator.failReplication('REPLICA-2', 'disk full');
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(stepOf(`${s.journal}.json`, 'sync').inDoubt, null, run.stdout + run.stderr);
  s.emulator.failReplication('REPLICA-2', null);
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const path = '/api/devops/v1/replication/configs/1/sync';
  assert.deepEqual(
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.status),
    [500, 200],
  );
});

test("a run killed during a step's second attempt: report of its journal says two attempts, not one", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    retry: { attempts: 3, delay: 1ms, in-doubt: retry }
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 2 });
  const run = await runCli(['run', s.file, '--journal', s.journal], { env: s.env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The journal as a kill just after the second attempt's answer leaves it: that attempt's lines, none after.
  const lines = readFileSync(s.journal, 'utf8').split('\n');
  const answers = lines.flatMap((line, i) => (line.includes('"t":"answer"') ? [i] : []));
  assert.equal(answers.length, 3, 'three attempts sent');
  const killed = join(s.dir, 'killed.journal.jsonl');
  writeFileSync(killed, `${lines.slice(0, answers[1]! + 1).join('\n')}\n`);
  const report = await runCli(['report', killed, '--report-json', `${killed}.json`]);
  assert.equal(report.code, 1, report.stdout + report.stderr);
  const vfs = stepOf(`${killed}.json`, 'vfs');
  assert.equal(vfs.error?.code, 'IN_DOUBT');
  assert.equal(vfs.attempts, 2);
});

test("a write the server did not answer within the server's timeout is in doubt: no status line is no proof it never left, and resume does not send it again unasked", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: Timed out
servers:
  main: { url: "\${{ env.ENGINE_URL }}", username: admin, password: admin, timeout: 2s }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const env = { ENGINE_URL: url, PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  // The server reads the request and never answers: the client's timeout ends the call.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
  const run = await runCli(['run', file, '--journal', journal, '--report-json', `${journal}.json`], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const vfs = stepOf(`${journal}.json`, 'vfs');
  assert.equal(vfs.error?.code, 'API_TIMEOUT', JSON.stringify(vfs.error));
  assert.equal(vfs.inDoubt?.path, '/api/devops/v1/update/vfs', 'it left: the server may have applied it');
  await runCli(['report', journal, '--report-json', `${journal}.report.json`]);
  assert.equal(stepOf(`${journal}.report.json`, 'vfs').inDoubt?.path, '/api/devops/v1/update/vfs');
  const resumed = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /in doubt/);
  assert.equal(emulator.count('POST', '/api/devops/v1/update/vfs'), 1, 'not sent again unasked');
});

test("a run killed after the journal holds the step's reading of an update answered 200 with success: false (refused), before its end: report reads it refused, not in doubt, and resume sends it again unasked", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const run = await runCli(['run', s.file, '--journal', s.journal], { env: { ...s.env, PROD_TOKEN: 'wrong-token' } });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  // The journal a kill right after the step's reading was recorded leaves: no end of the step.
  const lines = readFileSync(s.journal, 'utf8').split('\n');
  const reading = lines.findIndex((l) => l.includes('"t":"answer"') && l.includes('"refused":true'));
  assert.ok(reading > 0, 'the journal holds the reading');
  const killed = `${s.journal}.killed.jsonl`;
  writeFileSync(killed, lines.slice(0, reading + 1).join('\n') + '\n');
  await runCli(['report', killed, '--report-json', `${killed}.json`]);
  assert.equal(stepOf(`${killed}.json`, 'vfs').inDoubt, null, 'the server refused it: nothing to decide');
  const resumed = await runCli(['run', s.file, '--resume', killed], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/update/vfs'), 2, 'sent again: the refused update and the one applied now');
});

/** A proxy that refuses every tunnel (CONNECT) with 407: nothing goes past it. */
async function refusingProxy(t: TestContext): Promise<string> {
  const proxy = createServer();
  proxy.on('connect', (_req, socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const NEVER_LEFT: { name: string; code: string; env: (t: TestContext) => Promise<Record<string, string>> }[] = [
  {
    name: 'its host name could not be resolved',
    code: 'API_DNS_FAILURE',
    env: async () => ({ ENGINE_URL: 'https://enginectl-fate.invalid' }),
  },
  {
    name: 'the proxy refused the tunnel (407)',
    code: 'API_PROXY',
    env: async (t) => ({ ENGINE_URL: 'https://erp.example.com', HTTPS_PROXY: await refusingProxy(t) }),
  },
];

for (const c of NEVER_LEFT) {
  test(`a write that never left (${c.name}) is not in doubt: report says so, and resume sends it unasked`, async (t) => {
    const s = await setup(
      t,
      `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
    );
    const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
      env: { ...s.env, ...(await c.env(t)) },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const vfs = stepOf(`${s.journal}.json`, 'vfs');
    assert.equal(vfs.error?.code, c.code, JSON.stringify(vfs.error));
    assert.equal(vfs.inDoubt, null, 'nothing reached the server');
    await runCli(['report', s.journal, '--report-json', `${s.journal}.report.json`]);
    assert.equal(stepOf(`${s.journal}.report.json`, 'vfs').inDoubt, null, 'the journal reads the same');
    const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(s.applied('/update/vfs'), 1);
  });
}

// JSON the API never answers with these: a redirect, or a 5xx of another write than a replication sync.
const NOT_A_REFUSAL = [
  { status: 307, body: '{"message":"moved to the primary"}' },
  { status: 500, body: '[{"error":"internal"}]' },
];

for (const answer of NOT_A_REFUSAL) {
  test(`a write answered ${answer.status} with JSON is no refusal the API documents: in doubt, and resume does not send it again`, async (t) => {
    const s = await setup(
      t,
      `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
    );
    s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', ...answer, times: 1 });
    const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
      env: s.env,
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(stepOf(`${s.journal}.json`, 'vfs').inDoubt?.status, answer.status);
    const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /in doubt/);
    assert.equal(s.emulator.count('POST', '/api/devops/v1/update/vfs'), 1);
  });
}

test('a write whose answer was cut after its status line is in doubt with that status, live and read back from its journal', async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', truncate: true, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, '--report-json', `${s.journal}.json`], {
    env: s.env,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const live = stepOf(`${s.journal}.json`, 'vfs');
  assert.equal(live.error?.code, 'API_CONNECTION_RESET', JSON.stringify(live.error));
  assert.deepEqual(live.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs', status: 200 });
  await runCli(['report', s.journal, '--report-json', `${s.journal}.report.json`]);
  assert.deepEqual(stepOf(`${s.journal}.report.json`, 'vfs').inDoubt, live.inDoubt, 'the journal reads the same');
  // Killed before its end: the journal's records of the call alone say the same.
  const lines = readFileSync(s.journal, 'utf8').split('\n');
  const end = lines.findIndex((l) => l.includes('"t":"end"'));
  const killed = `${s.journal}.killed.jsonl`;
  writeFileSync(killed, lines.slice(0, end).join('\n') + '\n');
  const resumed = await runCli(['run', s.file, '--resume', killed], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /POST \/api\/devops\/v1\/update\/vfs, answered 200/);
});

test('a write whose send record the journal could not keep (deleted as the step read its target first) never left: no report says it is in doubt', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    head('Journal gone') +
      `  - id: update
    uses: classes/update
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  // The step reads the entity before its write (verify's snapshot): the journal is deleted then.
  const gateway = await gatewayInFront(
    t,
    url,
    () => undefined,
    (method, path) => {
      if (method === 'GET' && path.endsWith('/entities/2001') && existsSync(journal)) unlinkSync(journal);
    },
  );
  const env = { ENGINE_URL: gateway, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', `${journal}.json`], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /was deleted while the run wrote it/);
  const writes = emulator.requests.filter((r) => r.method !== 'GET' && r.path.endsWith('/entities/2001'));
  assert.equal(writes.length, 0, 'the write did not leave');
  const update = stepOf(`${journal}.json`, 'update');
  assert.equal(update.inDoubt, null, JSON.stringify(update));
  assert.doesNotMatch(run.stdout + run.stderr, /in doubt/);
});

test("the operator's --in-doubt decision is in the journal as the resume starts: a resume killed right after holds it, and the next resume goes on with it, never asking again nor sending", async (t) => {
  const s = await setup(
    t,
    `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 1);
  const decided = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip'], { env: s.env });
  assert.notEqual(decided.code, 2, decided.stdout + decided.stderr);
  // The resume killed right after its decision was recorded: nothing of its steps in the journal.
  const lines = readFileSync(s.journal, 'utf8').split('\n');
  const decision = lines.findIndex((l) => l.includes('"t":"decision"'));
  assert.ok(decision > 0, 'the decision is recorded');
  const killed = `${s.journal}.killed.jsonl`;
  writeFileSync(killed, lines.slice(0, decision + 1).join('\n') + '\n');
  const again = await runCli(['run', s.file, '--resume', killed], { env: s.env });
  assert.notEqual(again.code, 2, again.stdout + again.stderr);
  assert.doesNotMatch(again.stderr, /cannot resume/);
  assert.equal(s.emulator.count('POST', '/api/devops/v1/update/vfs'), 1, 'treated as applied: not sent again');
});
