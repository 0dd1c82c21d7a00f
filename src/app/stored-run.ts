// A run kept in the run store (--store URL, or ENGINECTL_STORE): the store opened and probed, the
// run's id (new, or the one resumed), and the local journal file the run appends to: for a resume,
// laid anew from the store's copy, which is the run's truth wherever it ran before. Every group
// the journal syncs then goes to the store (journal/replica.ts).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { checkRunId, JournalReplica, newRunId, readStoredJournal } from '../journal/replica.ts';
import { DirectoryStore } from '../store/directory.ts';
import { probeStore } from '../store/probe.ts';
import type { RunStore } from '../store/store.ts';

export const STORE_VARIABLE = 'ENGINECTL_STORE';

/** The store a URL names: file:///PATH, or s3://BUCKET/PREFIX. */
export function storeAt(url: string, cwd: string): RunStore {
  if (url.startsWith('file://')) return new DirectoryStore(url);
  // A plain path is a directory, as users write one.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return new DirectoryStore(`file://${resolve(cwd, url)}`);
  throw new UsageError('BAD_ARGUMENTS', `--store ${url}: not a run store this enginectl opens`, { hint: 'give file:///PATH (a directory every runner mounts) or s3://BUCKET/PREFIX' });
}

export interface StoredRun {
  store: RunStore;
  runId: string;
  /** The local journal file the run appends to. */
  path: string;
  resume: boolean;
  /** Where the journal's next segment goes. */
  replica: JournalReplica;
}

export async function openStoredRun(request: { url: string; resumeId?: string | undefined; journal?: string | undefined; cwd: string; tmpdir: string; now: number }): Promise<StoredRun> {
  const store = storeAt(request.url, request.cwd);
  await probeStore(store, () => request.now);
  if (request.resumeId === undefined) {
    const runId = newRunId(request.now);
    const path = request.journal ?? join(request.tmpdir, `enginectl-${runId}.journal.jsonl`);
    return { store, runId, path, resume: false, replica: new JournalReplica(store, runId, 1) };
  }
  const runId = checkRunId(request.resumeId);
  const { text, next } = await readStoredJournal(store, runId);
  const path = request.journal ?? join(request.tmpdir, `enginectl-${runId}.journal.jsonl`);
  writeFileSync(path, text, { mode: 0o600 });
  return { store, runId, path, resume: true, replica: new JournalReplica(store, runId, next) };
}
