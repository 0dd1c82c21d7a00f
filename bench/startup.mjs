// Cold start: `enginectl validate pipelines/demo.yml` and `--version` (dist/cli.mjs, and the
// single executable when `npm run build:exe` has built it) against `node -e 0`, alternating in
// one run; medians and ratios. Targets (issue 18): validate from dist/cli.mjs <= 3x node -e 0,
// from the single executable <= 2x. dist/cli.mjs is timed with its code cache written (a first
// run of each case comes before the timed ones), and once without it, as a first run is.
import { existsSync } from 'node:fs';
import { CLI, NODE, median, ms, ratio, timed } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

export async function run() {
  const env = { PROD_TOKEN: 'x', STAGING_TOKEN: 'y' };
  const cases = {
    'node -e 0': [NODE, ['-e', '0']],
    'dist/cli.mjs --version': [NODE, [CLI, '--version']],
    'dist/cli.mjs validate demo.yml': [NODE, [CLI, 'validate', 'pipelines/demo.yml', '--emulator']],
    // What a first run pays: no code cache (src/cli/code-cache.ts).
    'dist/cli.mjs validate demo.yml, no code cache': [NODE, [CLI, 'validate', 'pipelines/demo.yml', '--emulator'], { ENGINECTL_DISABLE_CACHE: '1' }],
  };
  if (existsSync('dist/enginectl')) {
    cases['enginectl (SEA) --version'] = ['dist/enginectl', ['--version']];
    cases['enginectl (SEA) validate demo.yml'] = ['dist/enginectl', ['validate', 'pipelines/demo.yml', '--emulator']];
  }
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  // One run of each first: it writes the code cache that the timed runs read.
  for (const [cmd, args, own] of Object.values(cases)) timed(cmd, args, { ...env, ...own });
  for (let i = 0; i < RUNS; i++) for (const [name, [cmd, args, own]] of Object.entries(cases)) times[name].push(timed(cmd, args, { ...env, ...own }));
  const base = median(times['node -e 0']);
  return Object.entries(times).map(([name, t]) => {
    const r = median(t) / base;
    const limit = !name.includes('validate') || name.includes('no code cache') ? undefined : name.includes('SEA') ? 2 : 3;
    return { name: `cold start: ${name}`, figure: `${ms(median(t))} (${ratio(r)} node -e 0)`, target: limit ? `<= ${limit}x` : '', holds: limit ? r <= limit : undefined };
  });
}
