// Fan-out: a 200-instance matrix, 50 ms of emulator latency per call, max-parallel 16, against a
// bare undici pool process making the same 200 calls 16 at a time (bench/undici-pool.mjs,
// start-up included). Target (issue 18): within 1.1x of it. For scale, the ideal: ceil(200/16)
// x 50 ms plus start-up (the same file's `validate`).
import {
  emulatorProcess,
  ADMIN,
  CLI,
  NODE,
  matrixPipeline,
  median,
  ms,
  pairedRatio,
  peakRow,
  ratio,
  tempDir,
  timed,
  writeFile,
} from './lib.mjs';

const INSTANCES = 200;
const PARALLEL = 16;
const LATENCY = 50;
const RUNS = Number(process.env.BENCH_RUNS_HTTP ?? 9);

export async function run() {
  const dir = tempDir('fanout');
  const pipeline = writeFile(dir, 'fan.yml', matrixPipeline(INSTANCES, PARALLEL));
  const emulator = await emulatorProcess(['--fault', `POST /api/devops/v1/update/vfs latency=${LATENCY}ms`]);
  const env = { ENGINE_URL: emulator.url, ...ADMIN };
  const t = { run: [], startup: [], process: [] };
  let peak;
  try {
    for (let i = 0; i < RUNS; i++) {
      t.run.push(timed(NODE, [CLI, 'run', pipeline], env));
      t.startup.push(timed(NODE, [CLI, 'validate', pipeline], env));
      t.process.push(timed(NODE, ['bench/undici-pool.mjs', emulator.url, String(INSTANCES), String(PARALLEL)]));
    }
    peak = await peakRow('fan-out', {
      run: [NODE, [CLI, 'run', pipeline], env],
      'bare pool': [NODE, ['bench/undici-pool.mjs', emulator.url, String(INSTANCES), String(PARALLEL)]],
    });
  } finally {
    await emulator.stop();
  }
  const calls = Math.ceil(INSTANCES / PARALLEL) * LATENCY;
  const ideal = calls + median(t.startup);
  const actual = median(t.run);
  return [
    {
      name: `fan-out: ${INSTANCES} instances, ${LATENCY} ms/call, max-parallel ${PARALLEL}`,
      figure: `${ms(actual)} vs ideal ${ms(ideal)}`,
      target: '',
      holds: undefined,
    },
    { name: 'fan-out: run / ideal', figure: ratio(actual / ideal), target: '', holds: undefined },
    {
      name: 'fan-out: bare undici pool process, same calls',
      figure: ms(median(t.process)),
      target: '',
      holds: undefined,
    },
    {
      name: 'fan-out: run / bare pool process',
      figure: ratio(pairedRatio(t.run, t.process)),
      target: '<= 1.1x',
      holds: pairedRatio(t.run, t.process) <= 1.1,
    },
    peak,
  ];
}
