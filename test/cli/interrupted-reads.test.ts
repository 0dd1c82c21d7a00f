// What a command reads besides its pipeline (a body on standard input, a saved plan, a journal, a
// report to merge), cut short by the first SIGINT or SIGTERM while its writer stalls: the command
// ends at once with 130/143 and says the read was interrupted, in one line and its code, as the
// pipeline's read does (pipeline-path.test.ts). The CLI runs as a process, from the source
// (source-process.ts): the reading and the signals are the process edge's (main.ts).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { assertInterrupted, startSource as start } from '../helpers/source-process.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));

test('the first SIGINT ends an api --data @- reading a standard input left open: exit 130, one line, nothing sent', async () => {
  // A server nobody listens on: were the call made, it would fail (exit 1), not be interrupted.
  const { child, ended } = start(['api', 'POST', '/api/devops/v1/transaction-log/clear', '--data', '@-'], {
    stdin: 'pipe',
    env: { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  // A MiB written is taken only once the CLI reads it (more than a pipe holds): its signals are
  // trapped then, and it waits for the rest of the body, stdin being left open.
  await new Promise<void>((resolve, reject) =>
    child.stdin!.write(Buffer.alloc(1024 * 1024, ' '), (error) => (error ? reject(error) : resolve())),
  );
  child.kill('SIGINT');
  const r = await ended;
  child.stdin!.destroy();
  assertInterrupted(
    r,
    'SIGINT',
    '--data @-: reading standard input was interrupted (received SIGINT); nothing was sent',
  );
});

/** A FIFO named `name`, in a directory of its own. */
function fifo(name: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'enginectl-fifo-')), name);
  execFileSync('mkfifo', [path]);
  return path;
}

/**
 * Once the CLI has the FIFO open for reading (opening it for writing fails with ENXIO until then),
 * writes `text` and stalls: the CLI is reading it, and waits for the rest.
 */
async function stallWriting(path: string, text: string, child: ChildProcess): Promise<number> {
  for (;;) {
    try {
      const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      writeSync(writer, text);
      return writer;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || child.exitCode !== null) throw error;
      await sleep(20);
    }
  }
}

test('the first SIGINT ends a run whose --plan is a FIFO whose writer stalls: exit 130, told as interrupted, nothing run', async () => {
  const plan = fifo('plan.json');
  const { child, ended } = start(['run', DEMO, '--emulator', '--plan', plan]);
  const writer = await stallWriting(plan, '{"kind": ', child);
  child.kill('SIGINT');
  const r = await ended;
  closeSync(writer);
  assertInterrupted(
    r,
    'SIGINT',
    `--plan ${plan}: reading the saved plan was interrupted (received SIGINT); nothing was run`,
  );
});

test('the first SIGTERM ends a report of a journal, or a merge of one, that is a FIFO whose writer stalls: exit 143, told as interrupted', async () => {
  for (const args of [['report'], ['report', '--merge']]) {
    const journal = fifo('run.journal.jsonl');
    const { child, ended } = start([...args, journal]);
    const writer = await stallWriting(journal, '{"t": ', child);
    child.kill('SIGTERM');
    const r = await ended;
    closeSync(writer);
    assertInterrupted(
      r,
      'SIGTERM',
      `${args.join(' ')}: reading ${journal} was interrupted (received SIGTERM); nothing was done`,
    );
  }
});
