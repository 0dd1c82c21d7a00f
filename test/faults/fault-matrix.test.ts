// The fault matrix: the step types against the faults the emulator injects (src/emulator/faults/
// kinds.ts), on the call each step makes, over real HTTP on 127.0.0.1. For each pair: the step's
// outcome and error code, a message that says what failed, where and what to check, the outcome in
// every report, and the exact number of requests the server received: GET-only calls retry
// transient faults a bounded number of times, every other call is sent once.
//
// Not the full product. A fault of the answer's body (invalid JSON, a JSON body of the wrong shape)
// meets every step type: each step reads its answer by itself. Every other fault (the connection,
// the status, the time an answer takes) is met by the client and the runner the same way for every
// call of a method: it runs against one GET and one write of each API area (REPRESENTATIVES: every
// method, the steps with code of their own around the call: a gate, a call alongside, api/request's
// own reading of statuses), and the other step types meet two of those faults each, in turn, so a
// step that swallowed a failure of the client would still be caught. Every fault kind that changes
// what the client gets is in the matrix or names the test that covers it (ELSEWHERE).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it, test } from 'node:test';
import type { Emulator, FaultRule } from '../../src/emulator/index.ts';
import { FAULT_KINDS, kindsOf } from '../../src/emulator/faults/index.ts';
import { REPORT_FORMATS, type ReportKey } from '../../src/report/formats.ts';
import { renderings } from '../../src/report/renderings.ts';
import { closedPort, FAST_RETRY } from '../helpers/emulator.ts';
import { assertOutcomes } from '../helpers/reports.ts';
import { oneStep, runYaml } from '../helpers/run.ts';
import { STEP_CASES, type StepCase } from '../helpers/step-cases.ts';
import { manualTimer, until } from '../helpers/timing.ts';

interface Expectation {
  outcome: 'success' | 'failure';
  code?: string;
  /** Requests sent for the faulted call. */
  requests: number;
  /** What the message must say beyond the call and the server. */
  says?: RegExp;
}

interface Fault {
  name: string;
  /** The rule on the step's call; none for "connection refused" (nothing listens). */
  rule?: Omit<FaultRule, 'path' | 'method'>;
  /** Step and server settings the fault needs (timeouts). */
  stepExtra?: string;
  serverTimeout?: string;
  /** The time limit that runs out, once the call has reached the server: the step's or the call's. */
  runsOut?: 'step' | 'call';
  /** A fault of the answer's body, which each step type reads by itself: run on every step type. */
  everyStep?: true;
  expect(c: StepCase): Expectation;
}

/** A GET is tried 1 + 3 times on a transient fault; every other call once. */
const bounded = (c: StepCase) => (c.method === 'GET' ? 1 + FAST_RETRY.retries : 1);
const JSON_500 = '{"status":500,"error":"internal","message":"database PROD is locked by a backup"}';
const HTML_500 =
  '<!DOCTYPE html><html><head><title>500 Internal Server Error</title><style>body{font:12px}</style></head><body><h1>Internal Server Error</h1><p>The proxy could not reach the upstream.</p><script>alert(1)</script></body></html>';

export const FAULTS: Fault[] = [
  {
    name: 'connection refused',
    expect: (c) => ({
      outcome: 'failure',
      code: 'API_CONNECTION_REFUSED',
      requests: bounded(c),
      says: /connection refused/,
    }),
  },
  {
    name: 'reset before the response',
    rule: { reset: 'before' },
    expect: (c) => ({
      outcome: 'failure',
      code: 'API_CONNECTION_RESET',
      requests: bounded(c),
      says: /closed before the response was complete/,
    }),
  },
  {
    name: 'reset during the response',
    rule: { reset: 'after' },
    expect: (c) => ({
      outcome: 'failure',
      code: 'API_CONNECTION_RESET',
      requests: bounded(c),
      says: /closed before the response was complete/,
    }),
  },
  {
    name: 'no answer until the step timeout',
    rule: { hang: true },
    stepExtra: '    timeout: 2s\n',
    runsOut: 'step',
    expect: () => ({ outcome: 'failure', code: 'STEP_TIMEOUT', requests: 1, says: /timed out after 2s waiting for/ }),
  },
  {
    name: '401',
    rule: { status: 401 },
    expect: () => ({
      outcome: 'failure',
      code: 'API_UNAUTHORIZED',
      requests: 1,
      says: /authentication failed \(401\)/,
    }),
  },
  {
    name: '403',
    rule: { status: 403 },
    expect: () => ({ outcome: 'failure', code: 'API_FORBIDDEN', requests: 1, says: /forbidden \(403\)/ }),
  },
  {
    name: '404',
    rule: { status: 404 },
    expect: () => ({ outcome: 'failure', code: 'API_NOT_FOUND', requests: 1, says: /not found \(404\)/ }),
  },
  {
    name: '500 with a JSON body',
    rule: { status: 500, body: JSON_500, contentType: 'application/json' },
    expect: () => ({
      outcome: 'failure',
      code: 'API_HTTP_STATUS',
      requests: 1,
      says: /HTTP 500: database PROD is locked by a backup/,
    }),
  },
  {
    name: '500 without a body',
    rule: { status: 500, body: '' },
    expect: () => ({ outcome: 'failure', code: 'API_HTTP_STATUS', requests: 1, says: /HTTP 500 with no body/ }),
  },
  {
    name: '500 with an HTML page',
    rule: { status: 500, body: HTML_500, contentType: 'text/html' },
    expect: () => ({
      outcome: 'failure',
      code: 'API_HTTP_STATUS',
      requests: 1,
      says: /HTTP 500 with an HTML page: "500 Internal Server Error"/,
    }),
  },
  {
    name: '502',
    rule: { status: 502 },
    expect: (c) => ({ outcome: 'failure', code: 'API_HTTP_STATUS', requests: bounded(c), says: /HTTP 502/ }),
  },
  {
    name: '503',
    rule: { status: 503 },
    expect: (c) => ({ outcome: 'failure', code: 'API_HTTP_STATUS', requests: bounded(c), says: /HTTP 503/ }),
  },
  {
    name: '504',
    rule: { status: 504 },
    expect: (c) => ({ outcome: 'failure', code: 'API_HTTP_STATUS', requests: bounded(c), says: /HTTP 504/ }),
  },
  {
    name: 'invalid JSON',
    rule: { invalidJson: true },
    everyStep: true,
    expect: (c) =>
      c.body !== 'none'
        ? { outcome: 'failure', code: 'API_INVALID_RESPONSE', requests: 1, says: /invalid response/ }
        : { outcome: 'success', requests: 1 },
  },
  {
    name: 'a JSON body of the wrong shape',
    rule: { status: 200, body: '{"unexpected":true}', contentType: 'application/json' },
    everyStep: true,
    expect: (c) =>
      c.body === 'shape'
        ? { outcome: 'failure', code: 'API_INVALID_RESPONSE', requests: 1, says: /invalid response/ }
        : { outcome: 'success', requests: 1 },
  },
  {
    name: 'a truncated body',
    rule: { truncate: true },
    expect: (c) => ({
      outcome: 'failure',
      code: 'API_CONNECTION_RESET',
      requests: bounded(c),
      says: /closed before the response was complete/,
    }),
  },
  {
    name: "a gateway's 504 after the server acted",
    rule: { gateway: 504 },
    expect: (c) => ({
      outcome: 'failure',
      code: 'API_HTTP_STATUS',
      requests: bounded(c),
      says: /HTTP 504 with an HTML page: "504 Gateway Timeout"/,
    }),
  },
  { name: 'a slow answer', rule: { latencyMs: 20 }, expect: () => ({ outcome: 'success', requests: 1 }) },
  { name: 'a slow body', rule: { chunkDelayMs: 15 }, expect: () => ({ outcome: 'success', requests: 1 }) },
  {
    name: 'a body slower than the server timeout',
    // The head, then a body that does not come within the test.
    rule: { chunkDelayMs: 600_000 },
    serverTimeout: '2s',
    runsOut: 'call',
    expect: () => ({ outcome: 'failure', code: 'API_TIMEOUT', requests: 1, says: /no complete answer within 2s/ }),
  },
];

/** A pipeline of the step, on a server of its own when a fault needs its timeout. */
function pipelineOf(c: StepCase, fault: Fault): string {
  const yaml = oneStep(c.uses, c.with, fault.stepExtra ?? '');
  if (!fault.serverTimeout) return yaml;
  return yaml.replace(
    'targets:\n',
    `servers:\n  main: { url: "\${{ env.ENGINE_URL }}", username: admin, password: "\${{ secrets.ENGINE_PASSWORD }}", timeout: ${fault.serverTimeout} }\ntargets:\n`,
  );
}

/** One GET and one write of each API area, and the steps with code of their own around the call. */
const REPRESENTATIVES = [
  'update/vfs',
  'monitoring/engines',
  'licensing/remove',
  'licensing/check',
  'classes/get',
  'classes/update',
  'api/request',
];

/** The faults a step type meets: the body's faults always; the others all, or two in turn. */
function faultsFor(c: StepCase): Fault[] {
  const shared = FAULTS.filter((f) => !f.everyStep);
  if (REPRESENTATIVES.includes(c.uses)) return FAULTS;
  const i = STEP_CASES.filter((s) => !REPRESENTATIVES.includes(s.uses)).indexOf(c);
  const turn = [shared[(2 * i) % shared.length]!, shared[(2 * i + 1) % shared.length]!];
  return FAULTS.filter((f) => f.everyStep || turn.includes(f));
}

/** Fault kinds that change what the client gets, covered by a test of their own rather than the matrix. */
const ELSEWHERE: Record<string, string> = {
  'echo-credentials': 'test/security/secret-channels.test.ts',
  'site events': 'test/rollout/waves.test.ts',
};

test('the matrix meets every fault kind of the emulator, every API area with a GET and a write, and every fault more than once', () => {
  const met = new Set(FAULTS.flatMap((f) => (f.rule ? kindsOf({ path: '/', ...f.rule }) : [])).map((k) => k.name));
  for (const kind of FAULT_KINDS.filter((k) => k.before ?? k.instead ?? k.handled ?? k.rewrite ?? k.effect ?? k.send)) {
    const where = ELSEWHERE[kind.name];
    assert.ok(
      met.has(kind.name) || (where && existsSync(where)),
      `the fault kind ${kind.name} is in the matrix or names its test`,
    );
  }
  const area = (c: StepCase) => c.path.split('/')[2];
  const reps = STEP_CASES.filter((c) => REPRESENTATIVES.includes(c.uses));
  for (const a of new Set(STEP_CASES.map(area)))
    for (const get of [true, false])
      if (STEP_CASES.some((c) => area(c) === a && (c.method === 'GET') === get))
        assert.ok(
          reps.some((c) => area(c) === a && (c.method === 'GET') === get),
          `a ${get ? 'GET' : 'write'} of ${a}`,
        );
  for (const fault of FAULTS) {
    const cases = STEP_CASES.filter((c) => faultsFor(c).includes(fault));
    assert.ok(cases.length > reps.length, `${fault.name}: ${cases.length} step cases`);
  }
});

// Pairs run side by side. A time limit runs out when the test fires it, once the call has reached
// the server: a loaded machine cannot make it run out earlier.
describe('fault matrix', { concurrency: 4 }, () => {
  for (const c of STEP_CASES) {
    describe(`${c.uses} (${c.method} ${c.path})`, { concurrency: 8 }, () => {
      for (const fault of faultsFor(c)) {
        it(fault.name, async (t) => {
          const expected = fault.expect(c);
          const port = fault.rule ? undefined : await closedPort();
          let retries = 0;
          let server: Emulator | undefined;
          const limits = { step: manualTimer(), call: manualTimer() };
          const running = runYaml(t, pipelineOf(c, fault), {
            setup: (e) => {
              server = e;
              if (fault.rule) e.faults.add({ method: c.method, path: c.path, ...fault.rule });
            },
            env: port ? { ENGINE_URL: `http://127.0.0.1:${port}` } : {},
            timer: limits.step.timer,
            clientDeps: { onRetry: () => retries++, timer: limits.call.timer },
          });
          if (fault.runsOut) {
            await until(() => server?.count(c.method, c.path) === 1);
            assert.ok(limits[fault.runsOut].pending().includes(2000), `the ${fault.runsOut}'s 2s limit is running`);
            limits[fault.runsOut].fire();
          }
          const { result, emulator } = await running;
          const step = result.steps[0]!;
          const origin = port ? `http://127.0.0.1:${port}` : /http:\/\/127\.0\.0\.1:\d+/.source;

          assert.equal(step.outcome, expected.outcome, JSON.stringify(step.error));
          assert.equal(result.outcome, expected.outcome);
          if (expected.code) {
            assert.equal(step.error?.code, expected.code, step.error?.message);
            const message = step.error!.message;
            const calls = [`${c.method} ${c.path}`, ...(c.alongside ? [c.alongside] : [])].map((call) =>
              call.replace(/[/.]/g, '\\$&'),
            );
            assert.match(message, new RegExp(`(${calls.join('|')}) on ${origin}`), 'says which call, on which server');
            if (expected.says) assert.match(message, expected.says);
            assert.ok(step.error!.hint && step.error!.hint.length > 10, `a hint of what to check: ${step.error!.hint}`);
            assert.doesNotMatch(message, /<html|<script|\n\s+at /i, 'no markup, no stack trace');
          } else {
            assert.equal(step.error, undefined);
          }

          // The step's outcome in every report the run writes.
          const report = renderings(result).report;
          const text = (out: string | Iterable<string>) => (typeof out === 'string' ? out : [...out].join(''));
          const texts = Object.fromEntries(
            await Promise.all(REPORT_FORMATS.map(async (f) => [f.key, text(await f.render(report, undefined))])),
          ) as Record<ReportKey, string>;
          assertOutcomes(texts, [expected.outcome]);
          if (expected.code) assert.match(texts.junit, new RegExp(`<failure type="${expected.code}"`));

          // Exactly this many requests: the faulted call, retried only when it is a GET.
          // Nothing listens for "connection refused": every call's first try plus the retries.
          const calls = c.alongside ? 2 : 1;
          const sent = port ? calls + retries : emulator.count(c.method, c.path);
          assert.equal(sent, expected.requests * (port ? calls : 1), `${c.method} ${c.path} sent ${sent} time(s)`);
          if (expected.outcome === 'failure' && !port) {
            const others = emulator.requests
              .filter((r) => `${r.method} ${r.path}` !== `${c.method} ${c.path}`)
              .map((r) => `${r.method} ${r.path}`);
            // The call alongside may have left before the fault stopped it, or not: no other call did.
            assert.deepEqual(
              [...new Set(others)].filter((o) => o !== c.alongside),
              [],
              'no other call',
            );
          }
        });
      }
    });
  }
});

test('a write with `retry` is sent again as the step says, and only then', async (t) => {
  const c = STEP_CASES.find((s) => s.uses === 'update/vfs')!;
  const { result, emulator } = await runYaml(
    t,
    oneStep(c.uses, c.with, '    retry: { attempts: 3, delay: 10s, backoff: 2 }\n'),
    {
      setup: (e) => e.faults.add({ method: 'POST', path: c.path, status: 409, times: 2 }),
    },
  );
  assert.equal(result.outcome, 'success');
  assert.equal(result.steps[0]!.attempts, 3);
  assert.equal(emulator.count('POST', c.path), 3);
});
