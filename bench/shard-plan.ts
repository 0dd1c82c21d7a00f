// What every worker of a sharded run does before its first site, and `enginectl shard` once: load
// the pipeline of the whole fleet and plan its waves and manifest. Here `enginectl shard` of a
// rollout over N sites (a canary list, a count, a share, the rest) into a file store, run through
// the CLI's own entry in this process from the source (`node --import tsx`), timed in CPU ms (the
// least of RUNS rounds, the sizes alternating, after a round that warms the code up), and printed
// as JSON for bench/shards.mjs. In process, so that a process's start (about as long as planning
// 1,000 sites) does not hide a cost that grows faster than the sites: at 50 workers each planning
// 10,000 sites, planning the waves by searching lists cost 0.8 s of CPU a worker. Then a static
// worker's load of the same pipeline with half its sites selected (its own and those of the waves
// an analysis reads, as `run --shard` loads it: `waves: [50%, rest]` with gates), by the loader a
// worker calls: selecting by searching the list of sites cost 0.3 s of CPU at 10,000.
//   node --import tsx bench/shard-plan.ts RUNS DIR SIZE...
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCommand } from '../src/cli/run-command.ts';
import { loadPipelineFile } from '../src/app/pipeline-input.ts';
// @ts-expect-error -- bench/lib.mjs is the benchmarks' plain JavaScript, without types
import { shardPipeline } from './lib.mjs';

const [runs, dir, ...sizes] = process.argv.slice(2);

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const env = { PATH: '' };
const out: Record<string, number[]> = {};
// bench/shards.mjs's release (its servers never called: nothing is sent).
for (const size of sizes) shardPipeline(dir!, `plan-${size}.yml`, Number(size), 'http://127.0.0.1:9', 1);
for (let round = 0; round <= Number(runs); round++) {
  for (const size of sizes) {
    const store = join(dir!, `plan-store-${size}`);
    rmSync(store, { recursive: true, force: true });
    mkdirSync(store);
    let said = '';
    const start = cpu();
    const code = await runCommand(
      ['shard', join(dir!, `plan-${size}.yml`), '--store', `file://${store}`, '--shards', '50', '--assign', 'queue'],
      {
        stdout: (t) => (said += t),
        stderr: (t) => (said += t),
        stdoutIsTTY: false,
        env,
        cwd: dir!,
        signal: new AbortController().signal,
        readFile: async (path) => readFileSync(resolve(dir!, path), 'utf8'),
        readStdin: async () => '',
      },
    );
    const took = cpu() - start;
    if (code !== 0) throw new Error(`enginectl shard of ${size} sites exited ${code}: ${said}`);
    if (round > 0) (out[size] ??= []).push(took);
    // A static worker's load: half the sites selected.
    const half = Array.from({ length: Number(size) / 2 }, (_, i) => `site-${String(i + 1).padStart(5, '0')}`);
    const loadStart = cpu();
    await loadPipelineFile(
      join(dir!, `plan-${size}.yml`),
      { env, readFile: async (path) => readFileSync(resolve(dir!, path), 'utf8') },
      {
        selection: { only: { site: half }, skip: {} },
      },
    );
    if (round > 0) (out[`load ${size}`] ??= []).push(cpu() - loadStart);
  }
}
process.stdout.write(JSON.stringify(out));
