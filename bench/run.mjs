// `npm run bench`: runs the benchmarks, prints a table of figures, ratios and targets, and
// appends it to bench/RESULTS.md with the machine. Not part of `npm test`: no timed assertions.
import { appendFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

const { rows } = await import('./startup.mjs');
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = [
  `## ${new Date().toISOString()} (${machine})`,
  '',
  '| benchmark | median | ratio to `node -e 0` | target | holds |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.ms.toFixed(0)} ms | ${r.ratio.toFixed(2)}x | ${r.target ? `<= ${r.target}x` : ''} | ${r.target ? (r.ratio <= r.target ? 'yes' : 'no') : ''} |`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
appendFileSync(new URL('./RESULTS.md', import.meta.url), `${lines.join('\n')}\n`);
