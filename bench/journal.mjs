// The journal's cost: a 500-instance matrix of updates (each a POST announced and answered in
// the journal, fsynced) run with --journal and without it, alternately; medians, their ratio, and
// the journal's size. A run without --journal builds no journal at all (the observer is absent).
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  emulatorProcess,
  ADMIN,
  CLI,
  NODE,
  matrixPipeline,
  median,
  ms,
  pairedRatio,
  peakRow,
  ratio,
  tempDir,
  timed,
  writeFile,
} from './lib.mjs';

const INSTANCES = 500;
const RUNS = Number(process.env.BENCH_RUNS_HTTP ?? 9);

export async function run() {
  const dir = tempDir('journal');
  const pipeline = writeFile(dir, 'wide.yml', matrixPipeline(INSTANCES, 16));
  const journal = join(dir, 'run.journal.jsonl');
  const emulator = await emulatorProcess();
  const env = { ENGINE_URL: emulator.url, ...ADMIN };
  const t = { plain: [], journal: [] };
  let size = 0;
  let peak;
  try {
    for (let i = 0; i < RUNS; i++) {
      t.plain.push(timed(NODE, [CLI, 'run', pipeline], env));
      rmSync(journal, { force: true });
      t.journal.push(timed(NODE, [CLI, 'run', pipeline, '--journal', journal], env));
      size = statSync(journal).size;
    }
    rmSync(journal, { force: true });
    peak = await peakRow('journal', {
      'with --journal': [NODE, [CLI, 'run', pipeline, '--journal', journal], env],
      without: [NODE, [CLI, 'run', pipeline], env],
    });
  } finally {
    await emulator.stop();
  }
  const plain = median(t.plain);
  const withJournal = median(t.journal);
  // Runs alternate; the ratio is the median of the pairs (a drifting machine moves both).
  const pairs = pairedRatio(t.journal, t.plain);
  return [
    {
      name: `journal: ${INSTANCES}-instance matrix of updates, run with --journal vs without`,
      figure: `${ms(withJournal)} vs ${ms(plain)} (median of pairs ${ratio(pairs)})`,
      target: '<= 1.1x',
      holds: pairs <= 1.1,
    },
    {
      name: `journal: its size for ${INSTANCES} instances (4 records each, every value masked)`,
      figure: `${(size / 1024).toFixed(0)} KiB (${(size / INSTANCES / 1024).toFixed(1)} KiB per instance)`,
      target: 'reported',
      holds: undefined,
    },
    peak,
  ];
}
