// plan --live sends GET requests only: every pipeline under pipelines/, under every fault the
// emulator offers and under random answers, against every site the pipeline calls. The request
// logs of the sites are the evidence; the plan's exit code is 0 or 1 (something fails now), never
// a crash.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { parseFault, serve, siteUrl, Sites, type FaultRule } from '../../src/emulator/index.ts';
import { FAULT_KINDS, kindsOf } from '../../src/emulator/faults/index.ts';
import { runCli } from '../helpers/cli.ts';

const PIPELINES = readdirSync('pipelines')
  .filter((f) => f.endsWith('.yml'))
  .map((f) => `pipelines/${f}`);

/** Every fault setting of the emulator, on every API request (a few times where a retry would follow each). */
const FAULTS = [
  'status=500',
  'status=503 times=2',
  'status=404',
  'status=401',
  'status=403',
  'status=200 body=nonsense',
  'status=200 body=[]',
  'reset=before times=2',
  'reset=after times=2',
  'truncate times=2',
  'gateway=504 times=2',
  'invalid-json',
  'latency=5ms',
  'chunk-delay=1ms',
  'echo-credentials',
];

/** A seeded generator, so a failure names the case that made it. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function randomFaults(seed: number): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const bodies = ['{}', '[]', 'null', '"text"', '<html>', '{"status":400,"error":"bad"}', '[{"instanceId":1}]'];
  return Array.from(
    { length: 6 },
    () =>
      `${pick(['/api/monitoring/*', '/api/licensing/*', '/api/devops/*', '/api/classes/*', '/api/*'])} status=${pick([200, 201, 204, 301, 400, 409, 422, 500, 502])} body=${pick(bodies)} times=${1 + Math.floor(next() * 3)}`,
  );
}

const ENV = (url: string) => ({
  ENGINE_URL: url,
  ENGINE_USERNAME: 'admin',
  ENGINE_PASSWORD: 'admin',
  ...Object.fromEntries(
    ['test', 'staging', 'prod'].flatMap((site) => [
      [`${site.toUpperCase()}_ENGINE_URL`, siteUrl(url, site)],
      [`${site.toUpperCase()}_ENGINE_PASSWORD`, 'deploy-api-pass'],
    ]),
  ),
  PROD_TOKEN: 'prod-token',
  STAGING_TOKEN: 'staging-token',
  QA_TOKEN: 'qa-token',
  PROD_DEPLOY_PASSWORD: 'deploy-pass',
  TEST_DEPLOY_PASSWORD: 'deploy-pass',
});

async function planUnder(faults: FaultRule[], file: string, signal?: AbortSignal, onServe?: (sites: Sites) => void) {
  const sites = new Sites({
    faults,
    users: [{ name: 'deploy', password: 'deploy-api-pass', scopes: new Set(ALL_SCOPES) }],
  });
  const running = await serve(sites, { port: 0 });
  try {
    onServe?.(sites);
    const r = await runCli(['plan', file, '--live'], { env: ENV(running.url), signal });
    const requests = [...sites.started()].flatMap(([site, e]) => e.requests.map((q) => ({ site, ...q })));
    return { r, requests };
  } finally {
    await running.close();
  }
}

function check(what: string, r: { code: number | null; stderr: string }, requests: { method: string }[]) {
  assert.deepEqual(
    requests.filter((q) => q.method !== 'GET'),
    [],
    `${what}: only GET requests reach the server`,
  );
  assert.ok(r.code === 0 || r.code === 1, `${what}: exit ${r.code}\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at .*:\d+:\d+/, `${what}: no stack trace`);
}

test('the faults above are every fault kind of the emulator that changes an answer (hang: its own test below)', () => {
  const met = new Set(['hang', ...FAULTS.flatMap((spec) => kindsOf(parseFault(`/api/* ${spec}`)).map((k) => k.name))]);
  const changesAnswers = FAULT_KINDS.filter((k) => k.before ?? k.instead ?? k.handled ?? k.rewrite ?? k.send);
  assert.deepEqual(
    changesAnswers.filter((k) => !met.has(k.name)).map((k) => k.name),
    [],
  );
});

test('plan --live sends GET requests only for every pipeline under pipelines/, with no fault and under every fault', async () => {
  // All at once: each plan has its own emulator, and the retries' waits overlap.
  await Promise.all(
    ['', ...FAULTS].flatMap((spec) =>
      PIPELINES.map(async (file) => {
        const { r, requests } = await planUnder(spec ? [parseFault(`/api/* ${spec}`)] : [], file);
        check(`${file} under "${spec || 'no fault'}"`, r, requests);
        assert.ok(requests.length > 0, `${file}: the plan read the server`);
      }),
    ),
  );
});

test('plan --live sends GET requests only under random answers (seeded)', async () => {
  await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].flatMap((seed) =>
      PIPELINES.map(async (file) => {
        const specs = randomFaults(seed);
        const { r, requests } = await planUnder(specs.map(parseFault), file);
        check(`${file} under seed ${seed} (${specs.join(' | ')})`, r, requests);
      }),
    ),
  );
});

test('plan --live under a server that never answers: cancelled, and still nothing but GET was sent', async () => {
  for (const file of PIPELINES) {
    const stop = new AbortController();
    const { r, requests } = await planUnder([parseFault('/api/* hang')], file, stop.signal, (sites) => {
      // Released once the first request hangs: Ctrl-C, as an operator would.
      const watch = () =>
        [...sites.started().values()].some((e) => e.requests.length > 0) ? stop.abort() : setImmediate(watch);
      watch();
    });
    assert.deepEqual(
      requests.filter((q) => q.method !== 'GET'),
      [],
      `${file}: only GET requests`,
    );
    assert.ok(requests.length > 0);
    assert.equal(r.code, 130, `${file}: an interrupted plan exits 130`);
    assert.match(r.stderr, /plan: interrupted; what was read is partial, and nothing is saved/);
  }
});
