// Validation at scale: `enginectl validate` of pipelines of 1,000, 5,000 and 10,000 steps (the
// process, start-up included), and the cost per 1,000 steps between sizes (linear when equal);
// and of a fleet over an inventory of 1,000 and 4,000 sites (three matrix steps over every site,
// each site a server): the cost of each 1,000 sites after the first (it was quadratic: 81 ms per
// 1,000 sites, 40 ms once servers were looked up in sets). Target: 10,000 steps in <= 1 s, linear.
import { CLI, NODE, fleetPipeline, median, ms, ratio, tempDir, timed, writeFile } from './lib.mjs';

const SIZES = [1000, 5000, 10000];
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function pipeline(n) {
  const steps = Array.from({ length: n }, (_, i) =>
    i % 4 === 0
      ? `  - id: s${i}\n    uses: update/vfs\n    with: { target: prod, files: [1001, 1002] }\n`
      : `  - id: s${i}\n    uses: assert\n    if: success()\n    with: { that: "\${{ ${i} >= 0 }}" }\n`,
  ).join('');
  return `version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: prod-token }\nsteps:\n${steps}`;
}

export async function run() {
  const dir = tempDir('validation');
  const files = Object.fromEntries(SIZES.map((n) => [n, writeFile(dir, `p${n}.yml`, pipeline(n))]));
  const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const t = Object.fromEntries(SIZES.map((n) => [n, []]));
  for (let i = 0; i < RUNS; i++) for (const n of SIZES) t[n].push(timed(NODE, [CLI, 'validate', files[n]], env));
  const m = Object.fromEntries(SIZES.map((n) => [n, median(t[n])]));
  const fleet = (n) => fleetPipeline(n, (site) => `https://${site}.example.com`);
  const fleets = { 1000: writeFile(dir, 'f1000.yml', fleet(1000)), 4000: writeFile(dir, 'f4000.yml', fleet(4000)) };
  const f = { 0: [], 1000: [], 4000: [] };
  const bare = writeFile(dir, 'f1.yml', fleet(1));
  for (let i = 0; i < RUNS; i++) {
    f[0].push(timed(NODE, [CLI, 'validate', bare], env));
    for (const n of [1000, 4000]) f[n].push(timed(NODE, [CLI, 'validate', fleets[n]], env));
  }
  const [f0, f1, f4] = [median(f[0]), median(f[1000]), median(f[4000])];
  const firstK = f1 - f0;
  const laterK = (f4 - f1) / 3;
  const perK = (a, b) => (m[b] - m[a]) / ((b - a) / 1000);
  const early = perK(1000, 5000);
  const late = perK(5000, 10000);
  return [
    ...SIZES.map((n) => ({
      name: `validation: ${n.toLocaleString('en')} steps`,
      figure: ms(m[n]),
      target: n === 10000 ? '<= 1000 ms' : '',
      holds: n === 10000 ? m[n] <= 1000 : undefined,
    })),
    {
      name: 'validation: cost per 1,000 steps, 5k-10k vs 1k-5k',
      figure: `${ms(late)} vs ${ms(early)} (${ratio(late / early)})`,
      target: 'linear (about 1x)',
      holds: late / early <= 1.25,
    },
    {
      name: 'validation: a fleet over 1,000 and 4,000 sites',
      figure: `${ms(f1)} and ${ms(f4)} (one site: ${ms(f0)})`,
      target: '',
      holds: undefined,
    },
    {
      name: 'validation: cost per 1,000 sites from 1,000 to 4,000 (the first 1,000)',
      figure: `${ms(laterK)} (${ms(firstK)})`,
      target: 'reported',
      holds: undefined,
    },
  ];
}
