// A resume of a stored run (run --store URL --resume ID) lays the run's journal, read from the
// store, in a local copy in the temporary directory. Before, that copy
// (/tmp/enginectl-ID.XXXX.journal.jsonl) was left behind after every resume, whether it went on
// or was refused, and a refusal named the copy's temporary path, a file the user never gave,
// rather than the store's run. The copy goes when the command ends, however it ends, and a
// refusal names the run as the store holds it (`URL run ID`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { decodeLine, encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Resumed from the store
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** A stored run that failed at its write (409), and a temporary directory of the test's own for the resume. */
async function failedRun(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-resume-copy-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  mkdirSync(join(dir, 'store'));
  mkdirSync(join(dir, 'tmp'));
  const store = `file://${join(dir, 'store')}`;
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  const first = await runCli(['run', file, '--store', store], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = /^run: (\S+) in /m.exec(first.stdout)![1]!;
  const temp = join(dir, 'tmp');
  const resume = async (args: string[] = [], changed?: string) => {
    if (changed) writeFileSync(file, changed);
    return inTemp(temp, () => runCli(['run', file, '--store', store, '--resume', id, ...args], { env }));
  };
  return { dir, file, store, id, temp, env, resume };
}

/** `run` with the command's temporary directory (os.tmpdir(), read from TMPDIR) the test's `temp`. */
async function inTemp<T>(temp: string, run: () => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = temp;
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

test('a resume that goes on leaves no local copy of the journal behind', async (t) => {
  const f = await failedRun(t);
  const r = await f.resume();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /resumed from the store/);
  assert.deepEqual(readdirSync(f.temp), [], 'the local copy is gone');
});

test("a resume refused (the run's journal of a newer version) leaves no local copy, and names the store's run, not the copy", async (t) => {
  const f = await failedRun(t);
  // The run's first segment, its run record made a later version's, as a newer enginectl writes it.
  const segments = join(f.dir, 'store', 'runs', f.id, 'journal');
  const first = join(segments, readdirSync(segments).sort()[0]!);
  const [head, ...rest] = readFileSync(first, 'utf8').split('\n');
  writeFileSync(first, encodeLine({ ...(decodeLine(head!) as object), v: 9 }) + rest.join('\n'));
  const r = await f.resume();
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`${f.store} run ${f.id}:1: a journal of version 9; .*a newer enginectl wrote it`));
  assert.doesNotMatch(r.stderr, /enginectl-[^ ]*\.journal\.jsonl/, 'the local copy is not named');
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.deepEqual(readdirSync(f.temp), [], 'the local copy is gone');
});

test('a resume refused (the pipeline changed since the run) leaves no local copy either', async (t) => {
  const f = await failedRun(t);
  const r = await f.resume([], PIPELINE.replace('name: Resumed', 'name: Renamed').replace('[1001]', '[1002]'));
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: RESUME_REFUSED/);
  assert.deepEqual(readdirSync(f.temp), [], 'the local copy is gone');
});

test('a new stored run leaves no local file of its journal behind either: the store holds every record', async (t) => {
  const f = await failedRun(t);
  const r = await inTemp(f.temp, () => runCli(['run', f.file, '--store', f.store], { env: f.env }));
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(readdirSync(f.temp), [], 'the local file is gone');
});
