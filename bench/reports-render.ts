// Renders every report format of a rollout over N sites (test/helpers/fleet-report.ts: the
// runner's result, the model built by the code), in this process from the source (run with
// `node --import tsx`), and prints each rendering's times and bytes as JSON for bench/reports.mjs.
// Sizes alternate within each round; a first round warms the code up and is not kept. A smaller
// size is rendered for as many runs as make the largest's instances (ten runs of 1,000 sites, each
// its own objects), and each rendering's time is the mean: the same work in the same memory on
// both sides. Rendering one 1,000-site report ten times instead kept it in the CPU's caches, and
// the 10,000-site HTML looked 16x the 1,000's where doubling the sites doubles the time.
// Each time is the process's CPU time (user and system, its GC threads included), which other
// processes on a shared machine move less than the wall clock.
//   node --import tsx bench/reports-render.ts RUNS DIR SIZE...
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, renderHtml, renderJson, renderJunit, renderMarkdown } from '../src/report/index.ts';
import type { Report } from '../src/report/model.ts';
import { fleetRun } from '../test/helpers/fleet-report.ts';

const [runs, dir, ...sizes] = process.argv.slice(2);
const FORMATS: Record<string, (r: Report) => string> = {
  html: renderHtml,
  markdown: (r) => renderMarkdown(r),
  json: renderJson,
  junit: renderJunit,
};
type Figures = { ms: Record<string, number[]>; bytes: Record<string, number> };
const out: Record<string, Figures> = {};
const largest = Math.max(...sizes.map(Number));
const now = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
for (let round = 0; round <= Number(runs); round++) {
  for (const size of sizes) {
    const figures = (out[size] ??= { ms: {}, bytes: {} });
    const keep = (name: string, ms: number) => {
      if (round > 0) (figures.ms[name] ??= []).push(ms);
    };
    // As many runs of this size as make the largest's instances, each its own objects.
    const copies = Math.max(1, Math.round(largest / Number(size)));
    const results = Array.from({ length: copies }, () => fleetRun(Number(size)));
    let start = now();
    const reports = results.map((r) => buildReport(r));
    keep('model', (now() - start) / copies);
    for (const [name, render] of Object.entries(FORMATS)) {
      start = now();
      const texts = reports.map((r) => render(r));
      keep(name, (now() - start) / copies);
      figures.bytes[name] = Buffer.byteLength(texts[0]!);
      if (name === 'html' && round === 0) writeFileSync(join(dir!, `${size}.html`), texts[0]!);
    }
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
