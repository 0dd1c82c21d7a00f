// `npm run bench`: runs the benchmarks (bench/README.md), prints one table of figures, targets and
// whether each holds, and appends it to bench/RESULTS.md with the machine. Not part of `npm test`:
// no timed assertions anywhere. `BENCH_ONLY=memory,size npm run bench` runs a subset.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';

const ALL = [
  'startup',
  'release',
  'per-step',
  'fanout',
  'validation',
  'memory',
  'size',
  'journal',
  'fleet',
  'reports',
  'shards',
  'shard-reads',
];
// NODE_EXTRA_CA_CERTS makes Node 20 load every CA certificate at start-up (+80 ms to each
// process here); a typical CI runner does not set it. Unset for every benchmark unless
// BENCH_KEEP_CA=1; the table says which.
const ca =
  process.env.NODE_EXTRA_CA_CERTS !== undefined && process.env.BENCH_KEEP_CA === '1'
    ? 'NODE_EXTRA_CA_CERTS set'
    : 'NODE_EXTRA_CA_CERTS unset';
if (process.env.BENCH_KEEP_CA !== '1') delete process.env.NODE_EXTRA_CA_CERTS;
const only = process.env.BENCH_ONLY?.split(',') ?? ALL;
const started = performance.now();
const rows = [];
for (const name of ALL.filter((n) => only.includes(n))) {
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(...(await (await import(`./${name}.mjs`)).run()));
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ca}`;
const lines = [
  `## ${new Date().toISOString()} (${machine}; ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  '',
  '| benchmark | figure | target | holds |',
  '|---|---|---|---|',
  ...rows.map(
    (r) => `| ${r.name} | ${r.figure} | ${r.target} | ${r.holds === undefined ? '' : r.holds ? 'yes' : '**no**'} |`,
  ),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
appendFileSync(new URL('./RESULTS.md', import.meta.url), `${lines.join('\n')}\n`);
