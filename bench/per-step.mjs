// Per-step overhead: a 300-step pipeline of update/vfs through `enginectl run` against an
// emulator process, vs a plain undici keep-alive loop making the same 300 calls, vs a bash loop
// of curl (what users write instead). Alternating, medians. Targets: <= 1.3x the undici loop,
// >= 6x faster than the curl loop.
import { hasRequests } from './release.mjs';
import {
  emulatorProcess,
  ADMIN,
  CLI,
  NODE,
  median,
  ms,
  pairedRatio,
  peakRow,
  ratio,
  tempDir,
  timed,
  writeFile,
} from './lib.mjs';

const STEPS = 300;
const RUNS = Number(process.env.BENCH_RUNS_HTTP ?? 5);

export async function run() {
  const dir = tempDir('per-step');
  const steps = Array.from(
    { length: STEPS },
    () => '  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
  ).join('');
  const pipeline = writeFile(
    dir,
    'p300.yml',
    `version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: prod-token }\nsteps:\n${steps}`,
  );
  const curl = writeFile(
    dir,
    'curl-loop.sh',
    `#!/bin/bash
set -e
for i in $(seq ${STEPS}); do
  curl -sf -u admin:admin -H 'content-type: application/json' -d '{"targetDBName":"PROD","targetServer":"prod-db.example.com","targetAuthToken":"prod-token","files":[1001]}' "$1/api/devops/v1/update/vfs" > /dev/null
done
`,
  );
  const emulator = await emulatorProcess();
  const python = hasRequests();
  const t = { enginectl: [], undici: [], curl: [], python: [] };
  let peak;
  try {
    for (let i = 0; i < RUNS; i++) {
      t.enginectl.push(timed(NODE, [CLI, 'run', pipeline], { ENGINE_URL: emulator.url, ...ADMIN }));
      t.undici.push(timed(NODE, ['bench/undici-loop.mjs', emulator.url, String(STEPS)]));
      t.curl.push(timed('bash', [curl, emulator.url]));
      if (python) t.python.push(timed('python3', ['bench/peers/vfs.py', emulator.url, String(STEPS)], ADMIN));
    }
    peak = await peakRow('per-step', {
      enginectl: [NODE, [CLI, 'run', pipeline], { ENGINE_URL: emulator.url, ...ADMIN }],
      'undici loop': [NODE, ['bench/undici-loop.mjs', emulator.url, String(STEPS)]],
      ...(python ? { Python: ['python3', ['bench/peers/vfs.py', emulator.url, String(STEPS)], ADMIN] } : {}),
    });
  } finally {
    await emulator.stop();
  }
  const [e, u, c] = [median(t.enginectl), median(t.undici), median(t.curl)];
  return [
    {
      name: `per-step: ${STEPS} update/vfs steps, enginectl run`,
      figure: `${ms(e)} (${(e / STEPS).toFixed(2)} ms/step)`,
      target: '',
      holds: undefined,
    },
    { name: `per-step: undici keep-alive loop, ${STEPS} calls`, figure: ms(u), target: '', holds: undefined },
    { name: `per-step: curl loop, ${STEPS} calls`, figure: ms(c), target: '', holds: undefined },
    {
      name: 'per-step: enginectl / undici loop',
      figure: ratio(pairedRatio(t.enginectl, t.undici)),
      target: '<= 1.3x',
      holds: pairedRatio(t.enginectl, t.undici) <= 1.3,
    },
    {
      name: 'per-step: curl loop / enginectl',
      figure: ratio(pairedRatio(t.curl, t.enginectl)),
      target: '',
      holds: undefined,
    },
    {
      name: `per-step: Python requests.Session loop, ${STEPS} calls`,
      figure: python ? ms(median(t.python)) : 'python3 with requests not installed',
      target: '',
      holds: undefined,
    },
    {
      name: 'per-step: enginectl / Python',
      figure: python ? ratio(pairedRatio(t.enginectl, t.python)) : '-',
      target: '< 1x',
      holds: python ? pairedRatio(t.enginectl, t.python) < 1 : undefined,
    },
    peak,
  ];
}
