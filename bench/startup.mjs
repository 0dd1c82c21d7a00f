// Cold start: `enginectl validate pipelines/demo.yml` and `--version` (dist/cli.mjs, and the
// single executable when `npm run build:exe` has built it) against `node -e 0`, alternating in
// one run; medians and ratios. Issue 7's target: validate <= 1.8x node -e 0.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const env = { ...process.env, PROD_TOKEN: 'x', STAGING_TOKEN: 'y' };
const node = process.execPath;
const cases = {
  'node -e 0': [node, ['-e', '0']],
  'cli.mjs --version': [node, ['dist/cli.mjs', '--version']],
  'cli.mjs validate demo.yml': [node, ['dist/cli.mjs', 'validate', 'pipelines/demo.yml', '--emulator']],
};
if (existsSync('dist/enginectl')) {
  cases['enginectl (SEA) --version'] = ['dist/enginectl', ['--version']];
  cases['enginectl (SEA) validate demo.yml'] = ['dist/enginectl', ['validate', 'pipelines/demo.yml', '--emulator']];
}

const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) {
    const start = performance.now();
    execFileSync(cmd, args, { env, stdio: 'ignore' });
    times[name].push(performance.now() - start);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const base = median(times['node -e 0']);
export const rows = Object.entries(times).map(([name, t]) => ({ name, ms: median(t), ratio: median(t) / base, target: name.includes('validate') ? 1.8 : undefined }));
