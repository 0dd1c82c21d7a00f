// monitoring/engines with `engine:` judges an Engine online by the server's own clock: its
// updatedAt against the answer's Date header (enterprise-api.md 3, 8.2: online means it reported
// within 5 minutes), never against this machine's clock, which may be minutes off the server's.
// The emulator runs here on a clock offset from the runner's, both ways.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

const START = Date.UTC(2026, 10, 22, 12, 0, 0);

/** One step run against an emulator whose clock is `skewMs` ahead of the runner's (behind when negative). */
function skewed(t: TestContext, withBlock: string, skewMs: number, setup?: (e: Emulator) => void) {
  const clock = simulatedClock(START);
  return runYaml(t, oneStep('monitoring/engines', withBlock), {
    clock,
    emulator: { now: () => clock.now() + skewMs },
    setup,
  });
}

/** eng-prod-01 stopped reporting `ms` ago by the server's clock. */
const silentFor = (ms: number) => (e: Emulator) => {
  const engine = e.state.engines.find((x) => x.instanceId === 'eng-prod-01')!;
  engine.reporting = false;
  engine.updatedAt = e.now() - ms;
};

test('server 4 minutes ahead of the runner, eng-prod-01 silent 8 minutes by its clock: engine: says offline, as the server lists it', async (t) => {
  const list = await skewed(t, '{ engines: [eng-prod-01] }', 4 * 60_000, silentFor(8 * 60_000));
  assert.equal(list.result.outcome, 'failure', 'the server does not list it');
  const one = await skewed(t, '{ engine: eng-prod-01 }', 4 * 60_000, silentFor(8 * 60_000));
  const step = one.result.steps[0]!;
  assert.equal(step.outcome, 'failure', String(step.figures));
  assert.equal(step.outputs.online, 0);
  assert.match(step.error!.message, /0 online, eng-prod-01 offline \(last reported 8m(\ds)? ago by the server's clock/);
});

test('server 5.5 minutes behind the runner: a live Engine is online for engine: as in the list', async (t) => {
  const list = await skewed(t, '{ engines: [eng-prod-01] }', -5.5 * 60_000);
  assert.equal(list.result.outcome, 'success');
  const one = await skewed(t, '{ engine: eng-prod-01 }', -5.5 * 60_000);
  const step = one.result.steps[0]!;
  assert.equal(step.outcome, 'success', step.error?.message);
  assert.equal(step.outputs.online, 1);
});

/** A proxy in front of `upstream` that passes every answer on without a Date header. */
async function withoutDate(t: TestContext, upstream: string): Promise<string> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    res.sendDate = false;
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers.date;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("an answer without a Date header: engine: does not count the Engine online on this machine's clock, and says why", async (t) => {
  const clock = simulatedClock(START);
  const { url } = await startEmulator(t, { now: clock.now });
  const proxied = await withoutDate(t, url);
  const r = await runYaml(t, oneStep('monitoring/engines', '{ engine: eng-prod-01 }'), {
    clock,
    env: { ENGINE_URL: proxied },
  });
  const step = r.result.steps[0]!;
  assert.equal(step.outcome, 'failure');
  assert.equal(step.outputs.online, 0);
  assert.match(
    step.error!.message,
    /eng-prod-01 not counted online: the answer has no Date header, so how long ago it reported by the server's clock is unknown/,
  );
});
