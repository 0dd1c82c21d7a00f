// A write's fate on the paths beside the one-process CLI with a local journal
// (test/fuzz/write-fate.test.ts), proved by the same fault schedules and the same model
// (fate-model.ts): fast-check draws a write, attempts (1-3) × a fault at each × a retry policy × a
// kill of the run at its last call, then a follow-up on one of these paths:
//   store  the run kept in a run store (--store file://DIR), its runner lost with its disk: report
//          --store, resume from the store with each --in-doubt decision, verify --store, two
//          resumes at once, and a lease takeover (the killed run's lease left expired: the next
//          run of the fleet verifies the calls it left in doubt first);
//   shard  the write as a site's step of a sharded run: the worker's own retries, then its shard's
//          index run again, and the site's run resumed from the store with each decision; the
//          step's `longest:` none, passed or not on the taker's clock (past it, the taker's verify
//          proves a write the server never applied not applied, and sends it again once).
// The invariants, as for the local journal: the emulator applied exactly what the model says, never
// twice without a recorded decision; every report says "in doubt" exactly when the model does; a
// takeover's evidence says applied only of a write the server applied.
// `npm test` runs a few dozen schedules; `npm run fuzz` more. A failing schedule is shrunk by
// fast-check and kept in REGRESSIONS. The same schedules on a parked rollout, through the GitHub
// Action's entry and around a step's `longest:` are in fate-park, fate-action and fate-longest.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { shardFleet, workerProcess } from '../shard/helpers.ts';
import { realClock, type Clock } from '../../src/app/clock.ts';
import {
  ENV,
  HEAD,
  RULES,
  WRITES,
  PROVED_NOT_APPLIED,
  afterRun,
  arbitrary,
  cutStoreAfterLastSend,
  loseRunnerDisk,
  inDoubt,
  modelRun,
  stepOf,
  verdictsIn,
  writeOf,
  type Schedule,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules per path: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;

const STORE_FOLLOW_UPS = [
  'report',
  'resume',
  'resume-skip',
  'resume-retry',
  'resume-verify',
  'resume-verify-and-retry',
  'verify',
  'two-resumes',
  'takeover',
] as const;
const SHARD_FOLLOW_UPS = ['index-again', 'resume', 'resume-skip', 'resume-retry', 'resume-verify-and-retry'] as const;

type StoreSchedule = Schedule<(typeof STORE_FOLLOW_UPS)[number]>;
type ShardSchedule = Schedule<(typeof SHARD_FOLLOW_UPS)[number]> & {
  /**
   * The step's `longest:`, against the taker's clock 10 minutes on: none; 5m, passed (the taker's
   * verify proves a write the server never applied not applied, and sends it again once); 1h, not.
   */
  longest?: 'none' | 'past' | 'within';
};

const runIdOf = (stdout: string) => /^run: (\S+) in /m.exec(stdout)?.[1];

async function checkStore(t: TestContext, s: StoreSchedule): Promise<void> {
  const c = WRITES[s.step % WRITES.length]!;
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-store-'));
  const storeDir = join(dir, 'store');
  mkdirSync(storeDir);
  const storeUrl = pathToFileURL(storeDir).href;
  const lease = s.followUp === 'takeover' ? 'lease: { name: fleet, ttl: 10m, wait: 0s }\n' : '';
  const head = HEAD.replace('steps:\n', `${lease}steps:\n`);
  const file = join(dir, 'fate.yml');
  writeFileSync(
    file,
    `${head}  - uses: ${c.uses}\n    with: ${c.with}\n    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n`,
  );
  for (const fault of s.faults.slice(0, s.attempts)) {
    if (fault === 'none') break;
    emulator.faults.add({ method: c.method, path: c.path, times: 1, ...RULES[fault] });
  }
  const applied = () => emulator.requests.filter((r) => r.applied && r.method === c.method && r.path === c.path).length;
  const env = { ...ENV, ENGINE_URL: url };
  const where = `store ${c.uses} ${JSON.stringify(s)}`;

  const run = await runCli(['run', file, '--store', storeUrl, '--report-json', join(dir, 'run.json')], { env });
  const id = runIdOf(run.stdout);
  assert.ok(id, `${where}: ${run.stdout}${run.stderr}`);
  const { model, doubt, resent } = afterRun(c, s);
  assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${run.stdout})`);
  assert.equal(
    stepOf(join(dir, 'run.json')).inDoubt !== null,
    inDoubt(model.sent, model.success),
    `${where}: the run's report says in doubt exactly when the model does`,
  );
  emulator.faults.clear();
  if (s.killed) cutStoreAfterLastSend(storeDir, id!);
  loseRunnerDisk(id!);
  const before = applied();

  const report = await runCli(['report', '--store', storeUrl, '--run', id!, '--report-json', join(dir, 'report.json')]);
  assert.notEqual(report.code, 2, `${where}: ${report.stderr}`);
  assert.equal(
    stepOf(join(dir, 'report.json')).inDoubt !== null,
    doubt,
    `${where}: report --store says in doubt exactly when the model does`,
  );
  const resume = (decision?: string) =>
    runCli(['run', file, '--store', storeUrl, '--resume', id!, ...(decision ? ['--in-doubt', decision] : [])], {
      env,
    });
  switch (s.followUp) {
    case 'report':
      return;
    case 'resume':
    case 'resume-skip':
    case 'resume-verify':
    case 'resume-verify-and-retry':
    case 'resume-retry': {
      const decision = s.followUp === 'resume' ? undefined : s.followUp.slice('resume-'.length);
      const r = await resume(decision);
      if (doubt && !decision) assert.equal(r.code, 2, `${where}: a resume without a decision refuses while in doubt`);
      assert.equal(
        applied() - before,
        resent(decision === 'retry'),
        `${where}: applied again (${r.stdout}${r.stderr})`,
      );
      // Resumed once more, without a decision: what the first carried or sent is not sent again.
      const then = applied();
      const again = await resume();
      assert.equal(applied() - then, 0, `${where}: resumed once more (${again.stdout}${again.stderr})`);
      return;
    }
    case 'verify': {
      const r = await runCli(['verify', '--store', storeUrl, '--run', id!], { env });
      assert.equal(applied() - before, 0, `${where}: verify sends no write (${r.stdout}${r.stderr})`);
      return;
    }
    case 'two-resumes': {
      const both = await Promise.all([resume('retry'), resume('retry')]);
      assert.equal(
        applied() - before,
        resent(true),
        `${where}: two resumes at once send as one (${both.map((r) => r.stdout + r.stderr).join(' | ')})`,
      );
      return;
    }
    case 'takeover': {
      // The killed run's lease left behind, expired: the next run of the fleet verifies its calls first.
      const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
      await acquireLease(new DirectoryStore(storeUrl), 'fleet', {
        holder: { runId: id!, actor: 'night-job', host: 'runner-7' },
        ttlMs: 60_000,
        waitMs: 0,
        clock: hourAgo,
        verifyTakeover: async () => ({ evidence: [] }),
      });
      const gate = join(dir, 'gate.yml');
      writeFileSync(gate, `${head}  - uses: monitoring/alerts\n    with: { fail-on: none }\n`);
      const r = await runCli(['run', gate, '--store', storeUrl, '--report-json', join(dir, 'next.json')], { env });
      const said = r.stdout + r.stderr;
      assert.equal(applied() - before, 0, `${where}: a takeover sends no write (${said})`);
      if (!doubt) assert.equal(r.code, 0, `${where}: a run that left nothing in doubt is taken over (${said})`);
      if (/\): applied/.test(said))
        assert.ok(model.applied > 0, `${where}: the takeover's evidence says applied of a write not applied (${said})`);
      if (/\): not applied/.test(said))
        assert.equal(
          model.applied,
          0,
          `${where}: the takeover's evidence says not applied of a write applied (${said})`,
        );
      if (doubt && r.code === 0)
        assert.match(said, /\): applied/, `${where}: taken over while in doubt only on proof (${said})`);
      return;
    }
  }
}

/** Schedules kept as they were found: each runs first, every time. */
const STORE_REGRESSIONS: StoreSchedule[] = [
  // Found by this test (shrunk): a license removed, the run killed with the DELETE in flight;
  // resumed with --in-doubt verify-and-retry (verify read it removed), then resumed again: the
  // second resume said its inputs changed and sent the DELETE again.
  {
    step: WRITES.findIndex((c) => c.uses === 'licensing/remove'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'resume-verify-and-retry',
  },
  // The same on the operator's word (--in-doubt skip).
  {
    step: WRITES.findIndex((c) => c.uses === 'update/vfs'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'resume-skip',
  },
];

test(
  'the run store: a write is applied at most once without a recorded decision, resumed, verified or taken over from the store, and every report says in doubt exactly when the model does',
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of STORE_REGRESSIONS) await checkStore(t, s);
    await fc.assert(
      fc.asyncProperty(arbitrary(STORE_FOLLOW_UPS), (s) => checkStore(t, s)),
      { numRuns: RUNS },
    );
  },
);

/** A clock `ms` ahead of the real one: the killed worker's lease (its ttl 3s) long lapsed. */
function ahead(ms: number): Clock {
  const real = realClock();
  return { now: () => real.now() + ms, sleep: real.sleep };
}

const SITE = 'site-0001';
const LONGEST = { none: '', past: '    longest: 5m\n', within: '    longest: 1h\n' };
const FLEET_STEP =
  '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n';

async function checkShard(t: TestContext, s: ShardSchedule): Promise<void> {
  const c = writeOf(s);
  const model = modelRun(c, s);
  // Killed: the worker's last attempt is held at the gateway, never reaching the server, and the worker killed there.
  const last = model.sent.length;
  let seen = 0;
  let arrived: () => void = () => undefined;
  const atGateway = new Promise<void>((resolve) => (arrived = resolve));
  const f = await shardFleet(
    t,
    1,
    '  over: site\n  waves: [rest]',
    s.killed
      ? {
          before: (method, path) => {
            if (method !== c.method || !path.endsWith(c.path)) return undefined;
            if (!s.killed || ++seen !== last) return undefined;
            arrived();
            return new Promise<void>(() => undefined);
          },
        }
      : undefined,
  );
  const fleet = readFileSync(f.file, 'utf8');
  assert.ok(fleet.includes(FLEET_STEP));
  writeFileSync(
    f.file,
    fleet.replace(
      FLEET_STEP,
      `    uses: ${c.uses}\n    matrix: { site: "\${{ vars.sites }}" }\n    server: \${{ matrix.site }}\n${LONGEST[s.longest ?? 'none']}    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n    with: ${c.with}\n`,
    ),
  );
  for (const fault of s.faults.slice(0, s.attempts)) {
    if (fault === 'none') break;
    f.sites.faults.add({ method: c.method, path: c.path, site: SITE, times: 1, ...RULES[fault] });
  }
  const site = () => f.sites.started().get(SITE);
  const applied = () =>
    site()?.requests.filter((r) => r.applied && r.method === c.method && r.path.endsWith(c.path)).length ?? 0;
  const where = `shard ${c.uses} ${JSON.stringify(s)}`;
  const run = (await f.shard('--shards', '1')).run;
  const json = (tag: string) => join(f.dir, `${tag}.json`);
  const stepIn = (tag: string) => stepOf(json(tag));

  // Killed, the last attempt never reached the server: what the attempts before it applied.
  const sentBefore = model.appliedEach.slice(0, last - 1).filter(Boolean).length;
  const { doubt, resent } = afterRun(c, s, s.killed ? sentBefore : model.applied);
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];
  let later: Clock | undefined;
  /** The taker's verify read the write applied: settled, nothing is sent again. */
  let proved = false;
  /** The taker's verify proved it not applied (past longest:) and sent it again: done. */
  let resentDone = false;
  if (s.killed) {
    // A lease of 60s: the worker holds it until it is killed, however loaded the machine (the taker's
    // clock, 10 minutes ahead, reads it lapsed whatever its ttl up to 5 minutes).
    const worker = workerProcess([...args, '--shard-ttl', '60s'], f.env);
    t.after(() => worker.child.kill('SIGKILL'));
    await Promise.race([atGateway, worker.done]);
    worker.child.kill('SIGKILL');
    const ended = await worker.done;
    assert.equal(
      ended.code,
      null,
      `${where}: the worker was killed at its last attempt, as the model sends it (${ended.out})`,
    );
    assert.equal(
      applied(),
      sentBefore,
      `${where}: the server applied what the model says before the kill (${ended.out})`,
    );
    // Its shard's index run again, on a clock past the killed worker's lease: the taker reads the call back.
    later = ahead(600_000);
    // The sites' clock moves with it: the server's clock is the one verify counts on, and a taker
    // 10 minutes off it would rightly refuse to count on its own.
    f.server.now = later.now;
    // The faults were the killed worker's: what the taker sends again is answered as the API does.
    f.sites.faults.clear();
    const before = applied();
    const taker = await runCli([...args, '--report-json', json('taker')], { env: f.env, clock: later });
    const said = taker.stdout + taker.stderr;
    proved = /^verify: .*: applied: /m.test(said);
    const verdicts = new Set(verdictsIn(said));
    resentDone = verdicts.has('not-applied');
    if (resentDone)
      assert.ok(
        sentBefore === 0 && s.longest === 'past',
        `${where}: the taker's verify says not applied unproved (${said})`,
      );
    if (PROVED_NOT_APPLIED.has(c.uses) && !c.failsOnApplied && sentBefore === 0 && s.longest === 'past')
      assert.ok(resentDone, `${where}: past longest:, the taker's verify proves it not applied (${said})`);
    assert.equal(
      applied() - before,
      resentDone ? 1 : resent(false),
      `${where}: the taker sends only what was not applied, and what verify proved not applied once (${said})`,
    );
    if (proved) assert.ok(sentBefore > 0, `${where}: the taker's verify says applied of a write not applied (${said})`);
    else if (doubt && !resentDone)
      assert.notEqual(stepIn('taker').inDoubt, null, `${where}: the taker's report says in doubt (${said})`);
  } else {
    const worker = await runCli([...args, '--report-json', json('worker')], { env: f.env });
    const said = worker.stdout + worker.stderr;
    assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${said})`);
    assert.equal(
      stepIn('worker').inDoubt !== null,
      inDoubt(model.sent, model.success),
      `${where}: the worker's report says in doubt exactly when the model does (${said})`,
    );
    f.sites.faults.clear();
    const before = applied();
    const again = await runCli([...args, '--report-json', json('again')], { env: f.env });
    assert.equal(
      applied() - before,
      0,
      `${where}: the index run again sends nothing of an ended site (${again.stdout}${again.stderr})`,
    );
  }
  f.sites.faults.clear();
  if (s.followUp === 'index-again') return;
  const decision = s.followUp === 'resume' ? undefined : s.followUp.slice('resume-'.length);
  const siteRuns = readdirSync(join(f.store, 'runs'));
  assert.equal(siteRuns.length, 1, `${where}: ${siteRuns.join(', ')}`);
  // The site's run resumed as its worker ran it, with the decision; then once more without one.
  const resume = (...more: string[]) =>
    runCli(['run', f.file, '--store', f.storeUrl, '--resume', siteRuns[0]!, '--only', `site=${SITE}`, ...more], {
      env: f.env,
      ...(later ? { clock: later } : {}),
    });
  const before = applied();
  const r = await resume(...(decision ? ['--in-doubt', decision] : []));
  const said = r.stdout + r.stderr;
  if (doubt && !proved && !resentDone && !decision)
    assert.equal(r.code, 2, `${where}: a resume without a decision refuses while in doubt (${said})`);
  assert.equal(
    applied() - before,
    // Verify's proof settles it, but for the operator's word to send it again (--in-doubt retry: "or it is to be
    // repeated"); sent again by the taker, it is done.
    resentDone ? 0 : proved && decision !== 'retry' ? 0 : resent(decision === 'retry'),
    `${where}: the site's run resumed applies what the model says (${said})`,
  );
  const then = applied();
  const again = await resume();
  assert.equal(
    applied() - then,
    0,
    `${where}: resumed once more, nothing is sent again (${again.stdout}${again.stderr})`,
  );
}

/** Schedules kept as they were found: each runs first, every time. */
const SHARD_REGRESSIONS: ShardSchedule[] = [
  // Found by npm run fuzz (a fault of this test, after verify counted "since the call" on the
  // server's clock): the taker's clock 10 minutes ahead of the sites' made its verify cannot-tell
  // (a clock off the server's), not the not-applied past longest: the model expects.
  {
    step: 7,
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'index-again',
    longest: 'past',
  },
  // Found by this test: a worker killed with its update's retry in flight (its first attempt applied,
  // its answer cut); the worker taking the site over verified it applied and ended the site; the
  // site's run resumed (no decision) said its inputs changed and sent the update again.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/system'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['reset-after', 'none', 'none'],
    killed: true,
    followUp: 'resume',
  },
  // Found by npm run fuzz (a fault of this test's model, not of enginectl): a delete killed before
  // it reached the server was not applied, so the operator's retry applies it once.
  {
    step: WRITES.findIndex((c) => c.uses === 'classes/delete'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'resume-retry',
  },
  // Found by npm run fuzz (the model's): the taker's verify read it applied; the operator's
  // --in-doubt retry of the site's run is a recorded decision to send it again, and does.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/system'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['unreadable-2xx', 'none', 'none'],
    killed: true,
    followUp: 'resume-retry',
  },
];

test(
  'a shard worker: a write is applied at most once without a recorded decision, by its own retries, by the worker that takes its site over after a kill, and by the site run resumed',
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of SHARD_REGRESSIONS) await checkShard(t, s);
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(arbitrary(SHARD_FOLLOW_UPS), fc.constantFrom('none' as const, 'past' as const, 'within' as const))
          .map(([s, longest]) => ({ ...s, longest })),
        (s) => checkShard(t, s),
      ),
      { numRuns: RUNS },
    );
  },
);
