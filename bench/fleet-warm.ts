// The fleet release of bench/fleet.mjs made again and again in one process, against the bare
// pool's (bench/fleet-pool.mjs) made again in one process too, by turns: what each costs once its
// code is compiled and warm, with no process start-up on either side. The run goes through the
// CLI's own entry (runCommand, from the source: run with `node --import tsx`), journaled as
// fleet.mjs's. A first round of each warms the code up and is not kept. Prints, as JSON for
// fleet.mjs, each kept round's wall and CPU time (the process's user and system time, its
// compiler and GC threads included) in ms.
//   node --import tsx bench/fleet-warm.ts URL PIPELINE SITES PARALLEL ROUNDS DIR
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../src/cli/run-command.ts';
import type { CliIO } from '../src/cli/io.ts';
// @ts-expect-error: a plain module of the benchmarks, without types
import { poolRelease } from './fleet-pool.mjs';

const [url, pipeline, sites, parallel, rounds, dir] = process.argv.slice(2) as [string, ...string[]];
const journal = join(dir!, 'warm.journal.jsonl');
const poolJournal = join(dir!, 'warm.pool.journal');
const io: CliIO = {
  stdout: () => undefined,
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: false,
  env: { ...process.env, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  cwd: process.cwd(),
  signal: new AbortController().signal,
  readFile: (path) => readFile(path, 'utf8'),
  readStdin: async () => '',
};
const sides = {
  run: async () => {
    rmSync(journal, { force: true });
    const code = await runCommand(['run', pipeline!, '--journal', journal], io);
    if (code !== 0) throw new Error(`run exited ${code}`);
  },
  pool: async () => {
    rmSync(poolJournal, { force: true });
    await poolRelease(url, Number(sites), Number(parallel), poolJournal);
  },
};
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const out = { run: { wall: [] as number[], cpu: [] as number[] }, pool: { wall: [] as number[], cpu: [] as number[] } };
for (let round = 0; round <= Number(rounds); round++) {
  for (const side of ['run', 'pool'] as const) {
    const [w0, c0] = [performance.now(), cpu()];
    await sides[side]();
    if (round === 0) continue;
    out[side].wall.push(performance.now() - w0);
    out[side].cpu.push(cpu() - c0);
  }
}
rmSync(journal, { force: true });
rmSync(poolJournal, { force: true });
process.stdout.write(JSON.stringify(out));
