// Fan-out: a 200-instance matrix, 50 ms of emulator latency per call, max-parallel 16, against
// the ideal: ceil(200/16) x 50 ms plus start-up (the same file's `validate`: load and checks).
// Target: <= 1.15x the ideal.
import { emulatorProcess, ADMIN, CLI, NODE, median, ms, ratio, tempDir, timed, writeFile } from './lib.mjs';

const INSTANCES = 200;
const PARALLEL = 16;
const LATENCY = 50;
const RUNS = Number(process.env.BENCH_RUNS_HTTP ?? 5);

export async function run() {
  const dir = tempDir('fanout');
  const values = Array.from({ length: INSTANCES }, (_, i) => i + 1).join(', ');
  const pipeline = writeFile(dir, 'fan.yml', `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    matrix: { n: [${values}] }
    max-parallel: ${PARALLEL}
    with: { target: prod, files: [1001], tracking-id: "T-\${{ matrix.n }}" }
`);
  const emulator = await emulatorProcess(['--fault', `POST /api/devops/v1/update/vfs latency=${LATENCY}ms`]);
  const env = { ENGINE_URL: emulator.url, ...ADMIN };
  const t = { run: [], startup: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      t.run.push(timed(NODE, [CLI, 'run', pipeline], env));
      t.startup.push(timed(NODE, [CLI, 'validate', pipeline], env));
    }
  } finally {
    await emulator.stop();
  }
  const ideal = Math.ceil(INSTANCES / PARALLEL) * LATENCY + median(t.startup);
  const actual = median(t.run);
  return [
    { name: `fan-out: ${INSTANCES} instances, ${LATENCY} ms/call, max-parallel ${PARALLEL}`, figure: `${ms(actual)} vs ideal ${ms(ideal)}`, target: '', holds: undefined },
    { name: 'fan-out: run / ideal', figure: ratio(actual / ideal), target: '<= 1.15x', holds: actual / ideal <= 1.15 },
  ];
}
