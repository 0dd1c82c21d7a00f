// Issue 48's scale, read back: `enginectl runs --store URL` (a sharded run listed as one line, where
// it stands read by the merged report: app/sharded-runs.ts) and `decide --store URL --run ID
// --abort` (app/shard-abort.ts) of a sharded run parked at its barrier, of 1,000 and of 10,000
// sites in a file:// store. The run state is made once per size by a real sharded run over the
// emulator (shards.mjs's `sharded`: `enginectl shard`, then queue workers of `run --shard I/N`):
// the release of shards.mjs over two waves, 99% of the sites then the rest, a 1h bake after the
// first (every worker parks, exit 75, `--shard-wait 1s`): what stands is the first wave ended
// everywhere, its log and every site's record and journal, the rollout waiting for the bake.
// Each command is timed BENCH_RUNS_SHARD_READS times (3; the median), `runs` on the parked store,
// each abort on a hard-linked copy of it (a store's keys are create-only: the abort's entries are
// new files of the copy). BENCH_BEFORE_CLI=PATH (another build's dist/cli.mjs): each command is
// timed by it too, alternately with this one, the same state read, and the rows say before/after.
// The rows name the 1-minute load average as each size's timings began and ended.
// BENCH_SHARD_READS_SIZES=1000,10000 (the default) other sizes; the workers are 8 at 1,000 sites
// and 50 at 10,000 (issue 48's), BENCH_SHARD_READS_WORKERS=8,50 others.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { emulatorProcess, CLI, NODE, median, ms, ratio, shardPipeline, tempDir, timed } from './lib.mjs';
import { sharded } from './shards.mjs';

const SIZES = (process.env.BENCH_SHARD_READS_SIZES ?? '1000,10000').split(',').map(Number);
const WORKERS = (process.env.BENCH_SHARD_READS_WORKERS ?? '8,50').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS_SHARD_READS ?? 3);
const BEFORE = process.env.BENCH_BEFORE_CLI;
const ROLLOUT = '  waves: [99%, rest]\n  analysis: { bake: 1h }';

/** `cli`'s commands timed on the parked run `id` in `store` (a directory), each RUNS times: ms. */
function timeReads(cli, storeDir, store, id, pipeline, t) {
  t.runs.push(timed(NODE, [cli, 'runs', '--store', store]));
  const copy = `${storeDir}-copy`;
  rmSync(copy, { recursive: true, force: true });
  const cp = spawnSync('cp', ['-al', storeDir, copy]);
  if (cp.status !== 0) throw new Error(`cp -al ${storeDir}: ${cp.stderr}`);
  t.abort.push(
    timed(NODE, [
      cli,
      'decide',
      '--store',
      `file://${copy}`,
      '--run',
      id,
      '--abort',
      '--reason',
      'bench',
      '--pipeline',
      pipeline,
    ]),
  );
  rmSync(copy, { recursive: true, force: true });
}

/** Checks once that the state is what is measured: listed parked, and the abort takes (exit 0). */
function check(cli, store, id) {
  const r = spawnSync(NODE, [cli, 'runs', '--store', store], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 || !r.stdout.includes(`${id} `) || !/: parked at wave 1\n/.test(r.stdout))
    throw new Error(`runs --store did not list ${id} parked at wave 1 (exit ${r.status}): ${r.stdout}${r.stderr}`);
}

export async function run() {
  const dir = tempDir('shard-reads');
  const emulator = await emulatorProcess();
  const t = {};
  const load = [];
  try {
    for (const [k, sites] of SIZES.entries()) {
      const pipeline = shardPipeline(dir, `reads-${sites}.yml`, sites, emulator.url, 1, ROLLOUT);
      t[sites] = { after: { runs: [], abort: [] }, before: { runs: [], abort: [] } };
      await sharded(pipeline, dir, WORKERS[k] ?? WORKERS.at(-1), {
        workerArgs: ['--shard-wait', '1s'],
        okCodes: [75],
        keep: ({ store, id, storeDir }) => {
          check(CLI, store, id);
          const began = loadavg()[0];
          for (let i = 0; i < RUNS; i++) {
            if (BEFORE) timeReads(BEFORE, storeDir, store, id, pipeline, t[sites].before);
            timeReads(CLI, storeDir, store, id, pipeline, t[sites].after);
          }
          // The 1-minute load average as the timings began (it lags: the workers had just ended) and ended.
          load.push(`${began.toFixed(1)}-${loadavg()[0].toFixed(1)}`);
        },
      });
    }
  } finally {
    await emulator.stop();
  }
  rmSync(dir, { recursive: true, force: true });
  const [small, large] = SIZES;
  const what = {
    runs: 'runs --store (the sharded run listed, where it stands read by the merged report)',
    abort:
      'decide --abort --reason (its pipeline loaded to mask the reason, the abort appended to each wave not decided)',
  };
  const rows = [];
  const at = `load ${load.join(', ')}`;
  for (const cmd of ['runs', 'abort']) {
    const [a, b] = [small, large].map((s) => median(t[s].after[cmd]));
    const times = b / a;
    rows.push({
      name: `shard reads: ${what[cmd]} of a sharded run parked at its barrier, ${large} sites vs ${small} (file://, ${at})`,
      figure: `${ms(b)} vs ${ms(a)}: ${ratio(times)}`,
      target: `<= ${((10.5 * large) / small / 10).toFixed(1)}x (linear)`,
      holds: times <= (10.5 * large) / small / 10,
    });
    if (BEFORE)
      rows.push({
        name: `shard reads: ${cmd === 'runs' ? 'runs --store' : 'decide --abort'}, before (${BEFORE.replace(fileURLToPath(new URL('..', import.meta.url)), '')}) / after, alternately`,
        figure: SIZES.map((s) => {
          const [x, y] = [median(t[s].before[cmd]), median(t[s].after[cmd])];
          return `${s} sites: ${ms(x)} / ${ms(y)} = ${ratio(x / y)}`;
        }).join('; '),
        target: 'reported',
        holds: undefined,
      });
  }
  return rows;
}
