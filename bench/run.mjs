// `npm run bench`: runs the benchmarks (bench/README.md), prints one table of figures, targets and
// whether each holds, and appends it to bench/RESULTS.md with the machine. Not part of `npm test`:
// no timed assertions anywhere. `BENCH_ONLY=memory,size npm run bench` runs a subset.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';

const ALL = ['startup', 'per-step', 'fanout', 'validation', 'memory', 'size', 'journal'];
const only = process.env.BENCH_ONLY?.split(',') ?? ALL;
const started = performance.now();
const rows = [];
for (const name of ALL.filter((n) => only.includes(n))) {
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(...(await (await import(`./${name}.mjs`)).run()));
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = [
  `## ${new Date().toISOString()} (${machine}; ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  '',
  '| benchmark | figure | target | holds |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.figure} | ${r.target} | ${r.holds === undefined ? '' : r.holds ? 'yes' : '**no**'} |`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
appendFileSync(new URL('./RESULTS.md', import.meta.url), `${lines.join('\n')}\n`);
