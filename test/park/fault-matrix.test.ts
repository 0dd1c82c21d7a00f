// Every decision about a parked run over every step type that writes and every fault that makes a
// write fail or leaves it in doubt: a 3-site rollout (`on-failure: decide`) whose write at site-002
// meets the fault parks the run; the operator decides (enginectl decide) and the run goes on (run
// --continue); the emulator's request logs show that no write the server applied is sent again,
// and that a retry of a call verify cannot tell about is refused unless accepted with a reason.
//
// Not the full product (11 x 9 x 7): every write step type meets every fault (99 cells, less the
// steps that do not read their answer's body, which invalid JSON cannot fail), and each cell takes
// one decision, chosen so that every fault and every step type meets every decision (checked
// below). The time limits that end a call the server holds are the steps' own (`timeout: 2s`): the
// server never answers within them, so no machine is too slow for them; the bakes and the
// decisions' timeouts run on the fleet's simulated clock.
import assert from 'node:assert/strict';
import { describe, it, test, type TestContext } from 'node:test';
import type { FaultRule } from '../../src/emulator/index.ts';
import { FAULT_KINDS, kindsOf } from '../../src/emulator/faults/index.ts';
import { sealLicenses } from '../../src/emulator/license-code.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';
import { STEP_CASES, type StepCase } from '../helpers/step-cases.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

// licensing/add with a code of a license the sites lack (CRM): the code of STEP_CASES adds none, so
// the licenses read the same whether or not it was sent; this one adds one (pipeline-format.md).
const CRM = sealLicenses({
  licenseVersion: 1,
  licenses: [
    {
      productName: 'CRM',
      productKey: 3,
      type: 'connection',
      quantity: 5,
      extensions: [],
      licenseeName: 'ACME Corp',
      licenseeId: 'ACME-001',
      licenserKey: 7001,
      expiration: '2027-12-31',
    },
  ],
});
const WRITES = STEP_CASES.filter((c) => c.method !== 'GET').map((c) =>
  c.uses === 'licensing/add' ? { ...c, with: `{ code: "${CRM}" }` } : c,
);

interface Fault {
  name: string;
  rule: Omit<FaultRule, 'path' | 'method'>;
  /** Whether the server applied the write before the client's call failed. */
  applied: boolean;
  /** Step settings the fault needs (the time limit that ends a call the server holds). */
  stepExtra?: string;
  /** The step types the fault makes fail (default: all). */
  fails?: (c: StepCase) => boolean;
}

const TIMEOUT = '    timeout: 2s\n';

const FAULTS: Fault[] = [
  { name: 'reset before apply', rule: { reset: 'before' }, applied: false },
  { name: 'reset after apply', rule: { reset: 'after' }, applied: true },
  { name: 'hang until the step timeout (not applied)', rule: { hang: true }, applied: false, stepExtra: TIMEOUT },
  {
    name: 'a slow body past the step timeout (applied)',
    rule: { chunkDelayMs: 10_000 },
    applied: true,
    stepExtra: TIMEOUT,
  },
  { name: '500 (the API refused)', rule: { status: 500 }, applied: false },
  {
    name: "503 with a proxy's page",
    rule: { status: 503, body: '<html><body>upstream down</body></html>', contentType: 'text/html' },
    applied: false,
  },
  { name: 'gateway 504 (applied behind it)', rule: { gateway: 504 }, applied: true },
  { name: 'truncated answer (applied)', rule: { truncate: true }, applied: true },
  // A step that reads only the status does not read the body, so broken JSON fails it not.
  {
    name: 'invalid JSON answer (applied)',
    rule: { invalidJson: true },
    applied: true,
    fails: (c) => c.body !== 'none',
  },
];

/** Fault kinds that do not make a write fail or leave it in doubt by themselves, and why. */
const NOT_A_WRITE_FAULT: Record<string, string> = {
  latency:
    'a slow answer: the write is made after the wait, so past a time limit it is applied at a moment no test can fix without the wall clock; hang and chunk-delay cover a timeout before and after the write',
  'echo-credentials': 'an answer carrying the credentials: a masking fault (test/security), the write succeeds',
  'site events':
    'an alert or a stopped engine: fails the gates after the write (test/park/bake.test.ts), not the write',
  scope: 'which requests a rule applies to (times, site): used by every cell',
};

const DECISIONS = ['retry', 'skip', 'exclude', 'continue', 'abort', 'after-abort', 'after-continue'] as const;
type Decision = (typeof DECISIONS)[number];

interface Cell {
  write: StepCase;
  fault: Fault;
  decision: Decision;
}

/** Each (step type, fault) cell with one decision: the one its fault, then its step type, has met least. */
function cells(): Cell[] {
  const count = new Map<string, number>();
  const seen = (key: string) => count.get(key) ?? 0;
  const out: Cell[] = [];
  FAULTS.forEach((fault, fi) =>
    WRITES.forEach((write, wi) => {
      if (fault.fails && !fault.fails(write)) return;
      const stepKey = `${write.uses} ${write.method}`;
      const decision = [...DECISIONS].sort(
        (a, b) =>
          seen(`${fault.name}|${a}`) - seen(`${fault.name}|${b}`) ||
          seen(`${stepKey}|${a}`) - seen(`${stepKey}|${b}`) ||
          ((DECISIONS.indexOf(a) + fi + wi) % DECISIONS.length) - ((DECISIONS.indexOf(b) + fi + wi) % DECISIONS.length),
      )[0]!;
      count.set(`${fault.name}|${decision}`, seen(`${fault.name}|${decision}`) + 1);
      count.set(`${stepKey}|${decision}`, seen(`${stepKey}|${decision}`) + 1);
      out.push({ write, fault, decision });
    }),
  );
  return out;
}

const CELLS = cells();
const HOUR = 3_600_000;

async function runCell({ write, fault, decision }: Cell, t: TestContext) {
  // `longest: 10m`: once 10 minutes passed on the run's clock, verify may read a write as not applied.
  const yaml = `  - id: write
    name: "Write \${{ matrix.site }}"
    uses: ${write.uses}
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    longest: 10m
    with: ${write.with}
${fault.stepExtra ?? ''}`;
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], [site-002], rest]\n  max-failures: 1\n  on-failure: decide`,
    '',
    '',
    { write: yaml },
  );
  f.sites.faults.add({ method: write.method, path: write.path, ...fault.rule, times: 1, site: 'site-002' });
  const writes = (name: string) =>
    (f.sites.started().get(name)?.requests ?? []).filter((r) => r.method === write.method && r.path === write.path);
  const applied = (name: string) => writes(name).filter((r) => r.applied).length;

  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.deepEqual(
    first.report!.parked!.waits.map((w) => w.value),
    ['site-002'],
  );
  assert.equal(applied('site-001'), 1);
  assert.equal(
    applied('site-002'),
    fault.applied ? 1 : 0,
    `the fault ${fault.applied ? 'applied' : 'left unapplied'} the write`,
  );
  assert.equal(f.sites.started().get('site-003')?.requests.length ?? 0, 0, 'the wave after the canary waits');
  const sentBefore = writes('site-002').length;
  await f.clock.sleep(11 * 60_000, new AbortController().signal);

  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  const inDoubt = /\(in doubt: /.test(listed.stdout);
  const verdict = /verify: "Write site-002" \([^)]*\): (applied|not-applied|cannot-tell)/.exec(listed.stdout)?.[1];
  assert.equal(inDoubt, verdict !== undefined, `an in-doubt call has verify's verdict:\n${listed.stdout}`);
  if (verdict === 'applied') assert.ok(fault.applied, 'verify reads as applied only a write the server applied');
  if (verdict === 'not-applied')
    assert.ok(!fault.applied, 'verify reads as not applied only a write the server did not apply');
  if (!inDoubt) assert.ok(!fault.applied, 'a plain failure is one the server did not apply');

  let resent = false;
  const reason = ['--reason', `matrix: ${decision}`];
  let expected: { code: number; site3: number };
  if (decision === 'retry') {
    if (verdict === 'applied') {
      const refused = await f.decide(id, '--retry', 'site-002');
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /--retry site-002: verify read "Write site-002" as applied/);
    } else if (verdict === 'cannot-tell') {
      const refused = await f.decide(id, '--retry', 'site-002');
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /--retry site-002: verify cannot tell whether "Write site-002" was applied/);
      const noReason = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell');
      assert.equal(noReason.code, 2, noReason.stdout + noReason.stderr);
      assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'nothing recorded on a refusal');
    }
    // The operator sends it again only when it was not applied (what an operator checks on the server).
    const retries = verdict === undefined || verdict === 'not-applied' || !fault.applied;
    const args = retries
      ? ['--retry', 'site-002', ...(verdict === 'cannot-tell' ? ['--accept-cannot-tell'] : []), ...reason]
      : ['--skip', 'site-002', ...reason];
    const decided = await f.decide(id, ...args);
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    resent = retries;
    expected = { code: 0, site3: 1 };
  } else if (decision === 'skip' || decision === 'exclude') {
    const decided = await f.decide(id, `--${decision}`, 'site-002', ...reason);
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    expected = { code: decision === 'skip' ? 0 : 1, site3: 1 };
  } else if (decision === 'continue' || decision === 'abort') {
    const decided = await f.decide(id, `--${decision}`, ...reason);
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    expected = decision === 'continue' ? { code: 1, site3: 1 } : { code: 2, site3: 0 };
  } else {
    const then = decision === 'after-abort' ? 'abort' : 'continue';
    const decided = await f.decide(id, '--after', '4h', '--then', then, ...reason);
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    const early = await f.run('--continue', id);
    assert.equal(
      early.code,
      PARKED,
      `before its time the timeout's action is not taken: ${early.stdout}${early.stderr}`,
    );
    await f.clock.sleep(5 * HOUR, new AbortController().signal);
    expected = then === 'abort' ? { code: 2, site3: 0 } : { code: 1, site3: 1 };
  }
  const recorded = f.records(id).filter((r) => r.t === 'decide');
  assert.equal(recorded.length, 1, 'one decision recorded');
  assert.equal(recorded[0]!.reason, `matrix: ${decision}`);

  const done = await f.run('--continue', id);
  assert.equal(done.code, expected.code, done.stdout + done.stderr);
  if (expected.code === 2) assert.match(done.stderr, /the operator aborted it/);
  else
    assert.ok(
      done.report!.decisions.some((d) => d.reason === `matrix: ${decision}`),
      'the decision in the report',
    );

  // What the servers applied: no write applied is sent again.
  for (const [name, s] of f.sites.started())
    assert.ok(
      s.requests.filter((r) => r.applied && r.method === write.method && r.path === write.path).length <= 1,
      `${name}: a write applied at most once`,
    );
  assert.equal(applied('site-001'), 1, 'the canary not sent again');
  if (resent) {
    assert.equal(writes('site-002').length, sentBefore + 1, 'the retry sends the write once more');
    assert.equal(applied('site-002'), 1, 'the retried write (not applied before) applied once');
  } else {
    assert.equal(writes('site-002').length, sentBefore, 'the write at site-002 not sent again');
  }
  assert.equal(applied('site-003'), expected.site3);
}

describe(
  'every decision over every write step type and every write fault: no applied write sent again',
  { concurrency: 4 },
  () => {
    for (const cell of CELLS)
      it(`${cell.write.uses} ${cell.write.method} x ${cell.fault.name} x ${cell.decision}`, (t) => runCell(cell, t));
  },
);

test('the matrix holds every step type that writes, every fault kind that fails a write and every decision with each', () => {
  const writing = [...STEP_TYPES.values()].filter((s) => s.readOnly !== true).map((s) => s.uses);
  assert.deepEqual([...new Set(WRITES.map((w) => w.uses))].sort(), writing.sort());
  const inMatrix = new Set(FAULTS.flatMap((f) => kindsOf({ path: '/', ...f.rule }).map((k) => k.name)));
  for (const kind of FAULT_KINDS)
    assert.ok(
      inMatrix.has(kind.name) || NOT_A_WRITE_FAULT[kind.name],
      `fault kind ${kind.name}: in the matrix or said why not`,
    );
  for (const fault of FAULTS)
    assert.deepEqual(
      new Set(CELLS.filter((c) => c.fault === fault).map((c) => c.decision)),
      new Set(DECISIONS),
      `${fault.name}: every decision`,
    );
  for (const write of WRITES)
    assert.deepEqual(
      new Set(CELLS.filter((c) => c.write === write).map((c) => c.decision)),
      new Set(DECISIONS),
      `${write.uses} ${write.method}: every decision`,
    );
});
