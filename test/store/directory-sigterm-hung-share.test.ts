// A run over a directory store on a share that stops answering (a real one: a FUSE file system
// whose daemon answers nothing, mounted over the store's .tmp/ while the run goes on, so the next
// write's open waits in the kernel, in Node's thread pool), sent SIGTERM: as an S3 store's, the
// store's calls are given `?grace=` (5s by default) after the signal, then cut, the write in
// flight told as one whose fate is unknown. Node cannot cancel a call in its thread pool, and
// cannot exit while one is held there (its exit joins the pool's threads): the run writes its
// reports, then ends by the signal it was sent, which a shell and a CI system read as 143. Before,
// the store's calls were never cut: the run waited on the share for ever. The built CLI as a
// process, a real SIGTERM; no bound on time: the hang holds until the test ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { readStoredJournal } from '../../src/journal/replica.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { hangShareAt, hungShareSupported } from '../helpers/hung-share.ts';
import { until } from '../helpers/timing.ts';

const PATCH = '/api/classes/v1/classes/12/entities/2001';

/** The exit status as a shell reads it: a process ended by a signal is 128 + its number. */
const shellStatus = (code: number | null, signal: NodeJS.Signals | null) =>
  code ?? 128 + constants.signals[signal as keyof typeof constants.signals];

test(
  'SIGTERM to a run whose directory store hangs (a share that stopped answering): its store calls are cut after their grace, the write told unknown, status 143, the local journal holding the record the store did not take',
  { skip: !hungShareSupported && 'needs root with CAP_SYS_ADMIN and /dev/fuse (to mount a share that hangs)' },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-dir-sigterm-hung-'));
    const root = join(dir, 'store');
    mkdirSync(root);
    const file = join(dir, 'upd.yml');
    writeFileSync(
      file,
      `version: 1
name: Leased update
lease: { name: fleet, ttl: 10m }
steps:
  - id: upd
    uses: classes/update
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`,
    );
    const journal = join(dir, 'run.journal.jsonl');
    const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    const child = spawn(
      process.execPath,
      [CLI, 'run', file, '--store', pathToFileURL(root).href, '--journal', journal],
      { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    t.after(() => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    let ended = false;
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (code, signal) => ((ended = true), resolve([code, signal]))),
    );
    const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
    await until(() => patches() === 1 || ended);
    assert.equal(ended, false, `the run ended before its write reached the server: ${out}`);
    const id = /^run: (\S+) in /m.exec(out)?.[1];
    assert.ok(id, out);

    // From now on the share answers nothing a write reaches; then the CI system cancels the job.
    await hangShareAt(t, join(root, '.tmp'));
    child.kill('SIGTERM');
    const [code, signal] = await closed;
    assert.equal(shellStatus(code, signal), 143, `${code} ${signal}: ${out}`);
    assert.match(out, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
    // The journal stopped at the first record the store did not take (the PATCH's cut answer),
    // told as a write whose fate is unknown, never as one not written: its local file holds it.
    assert.match(
      out,
      /JOURNAL_WRITE_FAILED: .*cannot write runs\/\S+\/journal\/[0-9]{8} \(whether it was written is unknown\).*the store's calls were cut 5s after SIGTERM/,
    );
    assert.doesNotMatch(out, /not written/);
    assert.match(out, /lease fleet could not be released \(.*cut 5s after SIGTERM.*\): it expires by itself at/);
    const local = readFileSync(journal, 'utf8');
    assert.match(local.trim().split('\n').at(-1)!, /^\{"t":"answer",.*"error":"API_ABORTED"/);
    assert.doesNotMatch(local, /"t":"finish"/);
    const stored = await readStoredJournal(new DirectoryStore(pathToFileURL(root).href), id);
    assert.ok(
      stored.text.length > 0 && local.startsWith(stored.text) && stored.text.length < local.length,
      'the store holds what it took, the records before the one it did not',
    );
  },
);
