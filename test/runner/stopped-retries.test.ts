// A run stopped around a retry (SIGTERM, a cancelled job) reads its write's fate by the one rule
// (src/api/fate.ts stepDoubt) and records the pipeline's in-doubt: retry only once the write
// was sent again. The runner's own clock (tickingClock) makes the retry's wait; the stop is the
// run's signal, aborted at a known point of the run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneStep, runYaml, tickingClock } from '../helpers/run.ts';
import type { Emulator } from '../../src/emulator/index.ts';

const posts = (emulator: Emulator) =>
  emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs'));

test("a write applied (its update refused in the body), then sent again and stopped with no answer: in doubt, not 'interrupted'", async (t) => {
  const stop = new AbortController();
  const base = tickingClock();
  let emulator: Emulator | undefined;
  const clock = {
    ...base,
    sleep: async (ms: number, signal: AbortSignal) => {
      await base.sleep(ms, signal);
      if (ms < 1000) return;
      // The retry's wait ended: its write hangs at the server, and the run stops once it arrived.
      emulator!.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
      void (async () => {
        while (posts(emulator!).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
        stop.abort();
      })();
    },
  };
  const { result } = await runYaml(
    t,
    oneStep('update/vfs', '{ target: wrong, files: [1001] }', '    retry: { attempts: 2, delay: 5s }\n'),
    { clock, signal: stop.signal, setup: (e) => (emulator = e) },
  );
  const step = result.steps[0]!;
  assert.equal(posts(emulator!).length, 2);
  assert.equal(step.outcome, 'cancelled');
  assert.deepEqual(step.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs' });
  assert.equal(step.error?.code, 'IN_DOUBT');
});

test("the pipeline's in-doubt: retry is recorded once the write is sent again: a run stopped just after the wait records none", async (t) => {
  const stop = new AbortController();
  const base = tickingClock();
  const clock = {
    ...base,
    sleep: async (ms: number, signal: AbortSignal) => {
      await base.sleep(ms, signal);
      if (ms >= 1000) stop.abort();
    },
  };
  const { result, emulator } = await runYaml(
    t,
    oneStep(
      'update/vfs',
      '{ target: prod, files: [1001] }',
      '    retry: { attempts: 2, delay: 5s, in-doubt: retry }\n',
    ),
    {
      clock,
      signal: stop.signal,
      setup: (e) => e.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 }),
    },
  );
  const step = result.steps[0]!;
  assert.equal(posts(emulator).length, 1);
  assert.equal(step.inDoubt?.status, 504);
  assert.equal(step.decision, undefined, 'no write was sent again: no decision recorded');
});
