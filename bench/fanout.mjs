// Fan-out: a 200-instance matrix, 50 ms of emulator latency per call, max-parallel 16, against a
// bare undici pool process making the same 200 calls 16 at a time (bench/undici-pool.mjs,
// start-up included). Target (issue 18): within 1.1x of it. For scale, the ideal: ceil(200/16)
// x 50 ms plus start-up (the same file's `validate`).
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { emulatorProcess, ADMIN, CLI, NODE, matrixPipeline, median, ms, ratio, tempDir, timed, writeFile } from './lib.mjs';

async function barePool(url) {
  const agent = new Agent({ connections: 64 });
  const headers = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token', files: [1001] });
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < INSTANCES) {
      next++;
      const res = await request(`${url}/api/devops/v1/update/vfs`, { method: 'POST', headers, body, dispatcher: agent });
      await res.body.text();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const took = performance.now() - start;
  await agent.close();
  return took;
}

const INSTANCES = 200;
const PARALLEL = 16;
const LATENCY = 50;
const RUNS = Number(process.env.BENCH_RUNS_HTTP ?? 5);

export async function run() {
  const dir = tempDir('fanout');
  const pipeline = writeFile(dir, 'fan.yml', matrixPipeline(INSTANCES, PARALLEL));
  const emulator = await emulatorProcess(['--fault', `POST /api/devops/v1/update/vfs latency=${LATENCY}ms`]);
  const env = { ENGINE_URL: emulator.url, ...ADMIN };
  const t = { run: [], startup: [], pool: [], process: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      t.run.push(timed(NODE, [CLI, 'run', pipeline], env));
      t.startup.push(timed(NODE, [CLI, 'validate', pipeline], env));
      t.pool.push(await barePool(emulator.url));
      t.process.push(timed(NODE, ['bench/undici-pool.mjs', emulator.url, String(INSTANCES), String(PARALLEL)]));
    }
  } finally {
    await emulator.stop();
  }
  const calls = Math.ceil(INSTANCES / PARALLEL) * LATENCY;
  const ideal = calls + median(t.startup);
  const actual = median(t.run);
  const pool = median(t.pool);
  return [
    { name: 'fan-out: the same calls from a bare undici pool of 16 (server-bound floor)', figure: `${ms(pool)} vs ${ms(calls)} (${ratio(pool / calls)})`, target: '', holds: undefined },
    { name: `fan-out: ${INSTANCES} instances, ${LATENCY} ms/call, max-parallel ${PARALLEL}`, figure: `${ms(actual)} vs ideal ${ms(ideal)}`, target: '', holds: undefined },
    { name: 'fan-out: run / ideal', figure: ratio(actual / ideal), target: '', holds: undefined },
    { name: 'fan-out: bare undici pool process, same calls', figure: ms(median(t.process)), target: '', holds: undefined },
    { name: 'fan-out: run / bare pool process', figure: ratio(actual / median(t.process)), target: '<= 1.1x', holds: actual / median(t.process) <= 1.1 },
  ];
}
