// Cold start: `enginectl validate pipelines/demo.yml` and `--version` (dist/cli.mjs, and the
// single executable when `npm run build:exe` has built it) against `node -e 0`, alternating in
// one run; medians, and ratios as medians of the rounds' ratios. Targets: validate from dist/cli.mjs <= 4x node -e 0 (it keeps no
// code cache: every run compiles the bundle), from the single executable <= 2x.
import { existsSync } from 'node:fs';
import { CLI, NODE, median, ms, pairedRatio, ratio, timed } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

export async function run() {
  const env = { PROD_TOKEN: 'x', STAGING_TOKEN: 'y' };
  const cases = {
    'node -e 0': [NODE, ['-e', '0']],
    'dist/cli.mjs --version': [NODE, [CLI, '--version']],
    'dist/cli.mjs validate demo.yml': [NODE, [CLI, 'validate', 'pipelines/demo.yml', '--emulator']],
  };
  if (existsSync('dist/enginectl')) {
    cases['enginectl (SEA) --version'] = ['dist/enginectl', ['--version']];
    cases['enginectl (SEA) validate demo.yml'] = ['dist/enginectl', ['validate', 'pipelines/demo.yml', '--emulator']];
  }
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  // One run of each first: the file system's cache warm, as on a runner that checked out the repo.
  for (const [cmd, args, own] of Object.values(cases)) timed(cmd, args, { ...env, ...own });
  for (let i = 0; i < RUNS; i++)
    for (const [name, [cmd, args, own]] of Object.entries(cases))
      times[name].push(timed(cmd, args, { ...env, ...own }));
  return Object.entries(times).map(([name, t]) => {
    const r = pairedRatio(t, times['node -e 0']);
    const limit = !name.includes('validate') ? undefined : name.includes('SEA') ? 2 : 4;
    return {
      name: `cold start: ${name}`,
      figure: `${ms(median(t))} (${ratio(r)} node -e 0)`,
      target: limit ? `<= ${limit}x` : '',
      holds: limit ? r <= limit : undefined,
    };
  });
}
