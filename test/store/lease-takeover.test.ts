// The fleet lease through the CLI (in this process) against the emulator, on a directory store:
// what a takeover records (the operator's reason masked everywhere, the takeover a record of the
// taking run's journal, so a report rebuilt from the store says what the run said) and what a
// holder says of a lease an operator released under it. The previous holder's lease is written
// expired on a simulated clock: nothing waits for a ttl to pass.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';
import { readStoredJournal } from '../../src/journal/replica.ts';
import { decodeJournal } from '../../src/journal/frame.ts';
import { parseRecords } from '../../src/journal/read.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { assertClean } from '../helpers/secrets.ts';

const TOKEN = 'prod-token-7Qx9';

const PIPELINE = (lease: string, steps: string) => `version: 1
name: Leased release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
${lease}
steps:
${steps}`;

const VFS = '  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n';
const GATE = '  - uses: monitoring/alerts\n    with: { fail-on: none }\n';

async function setup(
  t: TestContext,
  hooks: {
    replace?: (method: string, path: string) => number | undefined;
    before?: (method: string, path: string) => void | Promise<void>;
  } = {},
) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-takeover-'));
  const storeDir = join(dir, 'store');
  mkdirSync(storeDir);
  const proxy = await gatewayInFront(t, url, (m, p) => hooks.replace?.(m, p), hooks.before);
  const env = {
    ENGINE_URL: proxy,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: TOKEN,
    ENGINECTL_STORE: pathToFileURL(storeDir).href,
  };
  const store = new DirectoryStore(env.ENGINECTL_STORE);
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  return { dir, storeDir, env, store, emulator, file };
}

/** Every file under `dir`, its path and text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

/**
 * A run that left a call verify cannot tell (the gateway answers 504 once the server applied the
 * vfs update), and the lease it held left expired in the store (written on a clock an hour behind):
 * the next run may take it over only with --take-over --reason.
 */
async function expiredHolder(s: Awaited<ReturnType<typeof setup>>) {
  const first = await runCli(['run', s.file('release.yml', PIPELINE('', VFS))], { env: s.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = /^run: (\S+) in /m.exec(first.stdout)?.[1];
  assert.ok(id, first.stdout);
  const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
  await acquireLease(s.store, 'prod-fleet', {
    holder: { runId: id!, actor: 'night-job', host: 'runner-7' },
    ttlMs: 60_000,
    waitMs: 0,
    clock: hourAgo,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  return id!;
}

const reportArgs = (dir: string, tag: string) => [
  '--report-json',
  join(dir, `${tag}.json`),
  '--summary',
  join(dir, `${tag}.md`),
  '--html',
  join(dir, `${tag}.html`),
  '--junit',
  join(dir, `${tag}.xml`),
];

test('a --take-over --reason holding a secret is masked in the log, the lease record in the store, the journal and every report, in any encoding', async (t) => {
  let gateway504 = true;
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/vfs') ? 504 : undefined),
  });
  await expiredHolder(s);
  gateway504 = false;
  const gate = s.file('gate.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', GATE));
  const reason = `checked PROD by hand; token ${TOKEN} still valid`;
  // A journal file of the runner's own (--journal), kept: the copy in the temporary directory goes as the run ends.
  const own = join(s.dir, 'taken.journal.jsonl');
  const taken = await runCli(
    ['run', gate, '--take-over', '--reason', reason, '--journal', own, ...reportArgs(s.dir, 'run')],
    { env: s.env },
  );
  assert.equal(taken.code, 0, taken.stdout + taken.stderr);
  assert.match(taken.stdout + taken.stderr, /lease prod-fleet: taken over; .*accepted by the operator: checked PROD/);
  const id = /^run: (\S+) in /m.exec(taken.stdout)?.[1];
  assert.ok(id, taken.stdout);
  const rebuilt = await runCli(['report', '--run', id!, ...reportArgs(s.dir, 'rebuilt')], { env: s.env });
  assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);

  assertClean("the run's stdout and stderr", taken.stdout + taken.stderr, [TOKEN]);
  assertClean("report --store's stdout and stderr", rebuilt.stdout + rebuilt.stderr, [TOKEN]);
  for (const tag of ['run', 'rebuilt'])
    for (const ext of ['json', 'md', 'html', 'xml'])
      assertClean(`${tag}.${ext}`, readFileSync(join(s.dir, `${tag}.${ext}`), 'utf8'), [TOKEN]);
  assert.ok(
    filesUnder(s.storeDir).some((f) => f.path.includes('leases')),
    'the lease is in the store',
  );
  for (const f of filesUnder(s.storeDir)) assertClean(f.path, f.text, [TOKEN]);
  assertClean("the taking run's journal", (await readStoredJournal(s.store, id!)).text, [TOKEN]);
  // The runner's own copy of the journal.
  assert.match(taken.stdout, new RegExp(`^journal: ${own}$`, 'm'));
  assertClean(own, readFileSync(own, 'utf8'), [TOKEN]);
});

test("a takeover is a record of the taking run's journal, ahead of its calls: the report rebuilt from the store shows the lease and takeover the run reported", async (t) => {
  let gateway504 = true;
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/vfs') ? 504 : undefined),
  });
  const previous = await expiredHolder(s);
  gateway504 = false;
  const gate = s.file('gate.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', GATE));
  const taken = await runCli(
    [
      'run',
      gate,
      '--take-over',
      '--reason',
      'checked PROD: vfs file 1001 is at the new version',
      ...reportArgs(s.dir, 'run'),
    ],
    { env: { ...s.env, USER: 'ops-jane' } },
  );
  assert.equal(taken.code, 0, taken.stdout + taken.stderr);
  const id = /^run: (\S+) in /m.exec(taken.stdout)?.[1];
  assert.ok(id, taken.stdout);
  const rebuilt = await runCli(['report', '--run', id!, ...reportArgs(s.dir, 'rebuilt')], { env: s.env });
  assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);

  type Lease = { name: string; takeover: { evidence: string[]; reason: string | null } | null } | null;
  const leaseOf = (tag: string) =>
    (JSON.parse(readFileSync(join(s.dir, `${tag}.json`), 'utf8')) as { lease: Lease }).lease;
  const atRun = leaseOf('run');
  assert.ok(atRun?.takeover, 'the run reported its takeover');
  assert.match(atRun.takeover.evidence.join('; '), new RegExp(`took over from run ${previous} .*cannot-tell`));
  assert.match(atRun.takeover.reason ?? '', /^checked PROD: vfs file 1001 is at the new version \(ops-jane@/);
  assert.deepEqual(leaseOf('rebuilt'), atRun, 'the report rebuilt from the store shows the lease the run reported');
  const tookOver = /^.*Took the lease over: .*$/m;
  assert.equal(
    tookOver.exec(readFileSync(join(s.dir, 'rebuilt.md'), 'utf8'))?.[0],
    tookOver.exec(readFileSync(join(s.dir, 'run.md'), 'utf8'))?.[0] ?? 'the run summary says the takeover',
  );

  // In the journal, after the run's record and ahead of any call of the run.
  const records = parseRecords(decodeJournal((await readStoredJournal(s.store, id!)).text), `run ${id}`);
  const at = records.findIndex((r) => r.t === ('lease' as string));
  assert.ok(at > 0, `a lease record in the journal: ${records.map((r) => r.t).join(', ')}`);
  assert.equal(records[at - 1]!.t, 'run');
  assert.ok(
    records.slice(0, at).every((r) => r.t === 'run'),
    'written before the run sent anything',
  );
});

test('a holder whose lease an operator released says so when it stops: released by whom and why, no run took it over, nothing verified its calls', async (t) => {
  const held: (() => void)[] = [];
  let hold = true;
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const s = await setup(t, {
    // The first write is held at the gateway until the operator has released the lease.
    before: (method, path) => {
      if (!hold || method !== 'POST' || !path.endsWith('/transaction-log/clear')) return undefined;
      hold = false;
      reached();
      return new Promise<void>((go) => held.push(go));
    },
  });
  const file = s.file(
    'release.yml',
    PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', `  - uses: transaction-log/clear\n${VFS}`),
  );
  const holder = runCli(['run', file, '--report-json', join(s.dir, 'holder.json')], { env: s.env });
  await atServer;
  const released = await runCli(['lease', 'release', 'prod-fleet', '--reason', 'runner-7 looked lost'], {
    env: { ...s.env, USER: 'ops-jane' },
  });
  assert.equal(released.code, 0, released.stdout + released.stderr);
  held.splice(0).forEach((go) => go());
  const stopped = await holder;
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  assert.equal(s.emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length, 0, 'nothing more was sent');
  const said = stopped.stdout + stopped.stderr;
  assert.match(said, /LEASE_LOST/);
  assert.match(
    said,
    /lease prod-fleet is no longer this run's: it was released by ops-jane@\S+ \(runner-7 looked lost\)/,
  );
  assert.doesNotMatch(said, /another run took it/);
  assert.doesNotMatch(said, /verified what this one may have sent/);
  assert.match(said, /no run took it over/);
  assert.ok(readFileSync(join(s.dir, 'holder.json'), 'utf8').length > 0, 'its report is written');
});

test("a lease release --reason holding a secret is masked with the secrets of the pipeline the holder's run named: in what it says, the lease record, lease status, and the holder's log, reports and journal", async (t) => {
  const held: (() => void)[] = [];
  let hold = true;
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const s = await setup(t, {
    before: (method, path) => {
      if (!hold || method !== 'POST' || !path.endsWith('/transaction-log/clear')) return undefined;
      hold = false;
      reached();
      return new Promise<void>((go) => held.push(go));
    },
  });
  const file = s.file(
    'release.yml',
    PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', `  - uses: transaction-log/clear\n${VFS}`),
  );
  const holder = runCli(['run', file, ...reportArgs(s.dir, 'holder')], { env: s.env });
  await atServer;
  // The operator's shell holds the pipeline's secrets (PROD_TOKEN), as the runner's did.
  const released = await runCli(
    ['lease', 'release', 'prod-fleet', '--reason', `runner-7 looked lost; its token ${TOKEN} is rotated`],
    { env: { ...s.env, USER: 'ops-jane' } },
  );
  assert.equal(released.code, 0, released.stdout + released.stderr);
  assert.match(released.stdout, /released by ops-jane@\S+: runner-7 looked lost; its token \*\*\* is rotated/);
  held.splice(0).forEach((go) => go());
  const stopped = await holder;
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  assert.match(stopped.stdout + stopped.stderr, /released by ops-jane@\S+ \(runner-7 looked lost; its token \*\*\* is/);
  const status = await runCli(['lease', 'status', 'prod-fleet'], { env: s.env });
  assert.match(
    status.stdout,
    /free \(released \S+ by ops-jane@\S+: runner-7 looked lost; its token \*\*\* is rotated\)/,
  );

  assertClean('lease release', released.stdout + released.stderr, [TOKEN]);
  assertClean('lease status', status.stdout + status.stderr, [TOKEN]);
  assertClean("the holder's stdout and stderr", stopped.stdout + stopped.stderr, [TOKEN]);
  for (const ext of ['json', 'md', 'html', 'xml'])
    assertClean(`holder.${ext}`, readFileSync(join(s.dir, `holder.${ext}`), 'utf8'), [TOKEN]);
  for (const f of filesUnder(s.storeDir)) assertClean(f.path, f.text, [TOKEN]);
});

test("lease release --pipeline FILE masks the reason with that pipeline's secrets when the store holds no run of the holder; without it, a warning says the reason is kept as given", async (t) => {
  const s = await setup(t);
  const file = s.file('release.yml', PIPELINE('', GATE));
  // Runners lost before their first record: the store holds no journal of theirs.
  for (const name of ['fleet-a', 'fleet-b'])
    await acquireLease(s.store, name, {
      holder: { runId: '20261126T000000Z-abcdef', actor: 'night-job', host: 'runner-7' },
      ttlMs: 3_600_000,
      waitMs: 0,
      clock: { now: () => Date.now(), sleep: async () => undefined },
      verifyTakeover: async () => ({ evidence: [] }),
    });
  const reason = `rotated ${TOKEN}`;
  const missing = await runCli(['lease', 'release', 'fleet-a', '--reason', reason, '--pipeline', 'gone.yml'], {
    env: s.env,
  });
  assert.equal(missing.code, 2, missing.stdout + missing.stderr);
  assert.match(missing.stderr, /lease release --pipeline gone\.yml: .*nothing was released/);
  assertClean('lease release --pipeline gone.yml', missing.stdout + missing.stderr, [TOKEN]);
  const given = await runCli(['lease', 'release', 'fleet-a', '--reason', reason, '--pipeline', file], { env: s.env });
  assert.equal(given.code, 0, given.stdout + given.stderr);
  assert.match(given.stdout, /: rotated \*\*\*$/m);
  assert.equal(given.stderr, '');
  const unread = await runCli(['lease', 'release', 'fleet-b', '--reason', 'runner-7 was lost'], { env: s.env });
  assert.equal(unread.code, 0, unread.stdout + unread.stderr);
  assert.match(
    unread.stderr,
    /warning: the reason is recorded as given: the pipeline of the lease's holder \(run 20261126T000000Z-abcdef\) could not be read to mask its secrets in it \(.*holds no run 20261126T000000Z-abcdef.*\); give --pipeline FILE/,
  );
  assertClean('lease release --pipeline', given.stdout + given.stderr, [TOKEN]);
  for (const f of filesUnder(s.storeDir).filter((f) => f.path.includes('fleet-a')))
    assertClean(f.path, f.text, [TOKEN]);
});

test("report --merge of a fleet's jobs keeps a job's lease takeover, its evidence and the operator's reason, named by its job", async (t) => {
  let gateway504 = true;
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/vfs') ? 504 : undefined),
  });
  await expiredHolder(s);
  gateway504 = false;
  const gates = `  - uses: monitoring/alerts\n    matrix: { site: [emea, apac] }\n    with: { fail-on: none }\n`;
  const gate = s.file('gates.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', gates));
  const reason = 'checked PROD: vfs file 1001 is at the new version';
  const emea = await runCli(
    ['run', gate, '--only', 'site=emea', '--take-over', '--reason', reason, '--report-json', join(s.dir, 'emea.json')],
    { env: { ...s.env, USER: 'ops-jane' } },
  );
  assert.equal(emea.code, 0, emea.stdout + emea.stderr);
  const apac = await runCli(['run', gate, '--only', 'site=apac', '--report-json', join(s.dir, 'apac.json')], {
    env: s.env,
  });
  assert.equal(apac.code, 0, apac.stdout + apac.stderr);
  const merged = await runCli([
    'report',
    '--merge',
    join(s.dir, 'emea.json'),
    join(s.dir, 'apac.json'),
    ...reportArgs(s.dir, 'merged'),
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  type Job = { limitedTo: string; lease: { takeover: { reason: string | null } | null } | null };
  const jobs = (JSON.parse(readFileSync(join(s.dir, 'merged.json'), 'utf8')) as { merged: { reports: Job[] } }).merged
    .reports;
  const taken = jobs.find((j) => j.limitedTo === 'site=emea');
  assert.match(taken?.lease?.takeover?.reason ?? '', /^checked PROD: vfs file 1001 is at the new version \(ops-jane@/);
  assert.equal(jobs.find((j) => j.limitedTo === 'site=apac')?.lease?.takeover, null);
  for (const tag of ['merged.md', 'merged.html', 'merged.xml'])
    assert.match(
      readFileSync(join(s.dir, tag), 'utf8'),
      /site=emea: Took the lease prod-fleet over: took over from run \S+ .*accepted by the operator: checked PROD/,
      tag,
    );
});

test("a takeover whose verify a signal cuts (SIGTERM while it reads the target back) is interrupted: the lease is not taken, still the expired holder's, and nothing is sent", async (t) => {
  let gateway504 = true;
  let hold = false;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const reading = new Promise<void>((resolve) => (reached = resolve));
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/system') ? 504 : undefined),
    // The takeover's verify reads the Engines back: held there.
    before: (method, path) => (hold && method === 'GET' && path.endsWith('/engines') ? (reached(), held) : undefined),
  });
  t.after(() => release());
  // A holder that left an update/system in doubt (verify reads it back), its lease expired.
  const system =
    '  - uses: update/system\n    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }\n';
  const first = await runCli(['run', s.file('system.yml', PIPELINE('', system))], { env: s.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const previous = /^run: (\S+) in /m.exec(first.stdout)?.[1];
  assert.ok(previous, first.stdout);
  const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
  await acquireLease(s.store, 'prod-fleet', {
    holder: { runId: previous, actor: 'night-job', host: 'runner-7' },
    ttlMs: 60_000,
    waitMs: 0,
    clock: hourAgo,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  gateway504 = false;
  hold = true;
  const posts = s.emulator.requests.filter((r) => r.method === 'POST').length;
  const gate = s.file('gate.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', GATE));
  const stop = new AbortController();
  const cut = runCli(['run', gate], { env: s.env, signal: stop.signal });
  const early = await Promise.race([reading.then(() => undefined), cut]);
  assert.equal(early, undefined, "the takeover's verify reads the Engines back");
  stop.abort(new Error('received SIGTERM'));
  const r = await cut;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  // Said as what was cut: the takeover's read-back, not a wait in the lease's queue.
  assert.match(
    r.stderr,
    /taking the lease prod-fleet over: reading back the calls in doubt was interrupted \(received SIGTERM\); only reads were sent/,
  );
  assert.doesNotMatch(r.stderr, /waiting for the lease/);
  assert.match(r.stderr, /code: CANCELLED/);
  const records = (await s.store.list('leases/prod-fleet/')).filter((k) => /\/\d{8}$/.test(k));
  const last = JSON.parse(String(await s.store.get(records.at(-1)!))) as { kind: string; holder: { runId: string } };
  assert.deepEqual([last.kind, last.holder.runId], ['acquire', previous], "the lease is still the expired holder's");
  assert.equal(s.emulator.requests.filter((q) => q.method === 'POST').length, posts, 'nothing sent');
});

test("a takeover reads the expired holder's journal with the journal's key: a record removed from it in the store is refused at its line, not read as a run that left no call in doubt", async (t) => {
  let gateway504 = true;
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/vfs') ? 504 : undefined),
  });
  const env = { ...s.env, ENGINECTL_JOURNAL_KEY: 'a-journal-key-of-32-characters-x' };
  Object.assign(s.env, { ENGINECTL_JOURNAL_KEY: env.ENGINECTL_JOURNAL_KEY });
  const previous = await expiredHolder(s);
  gateway504 = false;
  // Whoever can write the store removes the records of the call in doubt (its send, its answer,
  // its end): each line is still whole (its CRC), the chain of seals is broken at the line after them.
  const segments = join(s.storeDir, 'runs', previous, 'journal');
  let removed = 0;
  for (const name of readdirSync(segments)) {
    const path = join(segments, name);
    const lines = readFileSync(path, 'utf8').split('\n');
    const kept = lines.filter((l) => !/^\{"t":"(send|status|answer|end)"/.test(l));
    removed += lines.length - kept.length;
    writeFileSync(path, kept.join('\n'));
  }
  assert.ok(removed >= 2, `the call's records removed (${removed})`);
  const unsealed = await runCli(['verify', '--store', s.env.ENGINECTL_STORE, '--run', previous], { env });
  assert.equal(unsealed.code, 2, unsealed.stdout + unsealed.stderr);
  assert.match(unsealed.stderr, /seal/i, 'verify of that run refuses it at its line');

  const gate = s.file('gate.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', GATE));
  const taken = await runCli(['run', gate], { env });
  assert.equal(taken.code, 2, taken.stdout + taken.stderr);
  assert.match(taken.stderr, /LEASE_TAKEOVER_REFUSED/);
  assert.match(taken.stderr, new RegExp(`run ${previous}'s journal could not be read from the store: .*seal`, 'i'));
  assert.doesNotMatch(taken.stdout + taken.stderr, /left no call in doubt/);
  assert.equal(s.emulator.requests.filter((r) => r.path.endsWith('/alerts')).length, 0, 'nothing sent');
});

test("a journal key too short is refused as the invalid input it is when a takeover reads the expired holder's journal: not a call verify cannot tell, and --take-over does not take the lease over with it", async (t) => {
  let gateway504 = true;
  const s = await setup(t, {
    replace: (method, path) => (gateway504 && method === 'POST' && path.endsWith('/update/vfs') ? 504 : undefined),
  });
  const previous = await expiredHolder(s);
  gateway504 = false;
  const env = { ...s.env, ENGINECTL_JOURNAL_KEY: 'too-short' };
  const gate = s.file('gate.yml', PIPELINE('lease: { name: prod-fleet, ttl: 10m, wait: 0s }', GATE));
  for (const args of [[], ['--take-over', '--reason', 'checked the vfs on the server']]) {
    const r = await runCli(['run', gate, ...args], { env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /ENGINECTL_JOURNAL_KEY is 9 characters long: a journal's key is at least 16/);
    assert.match(r.stderr, /code: BAD_ARGUMENTS/);
    assert.doesNotMatch(r.stderr, /LEASE_TAKEOVER_REFUSED|verify cannot tell/);
    const records = (await s.store.list('leases/prod-fleet/')).filter((k) => /\/\d{8}$/.test(k));
    const last = JSON.parse(String(await s.store.get(records.at(-1)!))) as { kind: string; holder: { runId: string } };
    assert.deepEqual([last.kind, last.holder.runId], ['acquire', previous], "the lease is still the expired holder's");
  }
  assert.equal(s.emulator.requests.filter((r) => r.path.endsWith('/alerts')).length, 0, 'nothing sent');
});
