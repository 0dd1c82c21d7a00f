// The journal's hashes of what identifies a run, keyed with the journal's salt: each file the
// pipeline reads, its text with every secret the file holds masked (runner/file-secrets.ts
// fileMasker), and the --var values masked the same way, whatever the selection; those of a
// journal written before, as its run made them (legacy-masker.ts).
import { fileChanges } from '../pipeline/file-changes.ts';
import { fileHash, keyedHash, valuesHash } from '../journal/hashing.ts';
import { JOURNAL_VERSION, type JournalVersion } from '../journal/records.ts';
import type { Masker } from '../runner/masker.ts';
import type { Source } from './pipeline-input.ts';

type Hashed = { path: string; hash: string }[];

/**
 * The journal's hashes of the files the pipeline reads, of their masked text: the salt lies
 * beside them, so a hash of a secret would be an offline check of it. What is masked is what a
 * resume (and verify) cannot compare, as in the reports.
 */
export function filesHashes(
  sources: readonly Source[],
  salt: string,
  masker: Masker,
  version: JournalVersion = JOURNAL_VERSION,
): { path: string; hash: string }[] {
  // Version 2 hashed each file's text; version 3 hashes its SHA-256 (journal/hashing.ts).
  const hash = version === 2 ? keyedHash : fileHash;
  return sources.map((s) => ({ path: s.path, hash: hash(salt, masker.mask(s.text)) }));
}

/**
 * The journal's hash of the --var values: masked by `hashing` (the file masker: every secret the
 * file holds, whatever the selection), then by the run's masker (what it learnt beside, from the
 * environment: a password in an env URL), so the hash is no check of a secret either knows and
 * the same values hash alike under every --only.
 */
export function varsHashOf(
  salt: string,
  vars: Readonly<Record<string, unknown>>,
  hashing: Masker,
  run: Masker,
): string {
  return valuesHash(salt, run.maskValue(hashing.maskValue({ ...vars })));
}

/** What identifies a run in its journal: its files' hashes, and its --var values' hash. */
export interface Identity {
  files: Hashed;
  varsHash: string;
}

/**
 * What a resume compares with the journal's last run (`last`): `now`, as this run records it. A
 * journal written before the file masker hashed its files and its --var values with the run's
 * masker, taught the secrets its selection reached: no version field tells them apart (both are
 * version 2 or 3), so where `now` differs each of `legacy` is tried in turn (the run's masker as it
 * stands, for the same selection; one taught what the selection the journal's run recorded
 * reached, for another --only: legacy-masker.ts), the files and the values each on their own, and
 * what is unchanged is not said changed.
 */
export function comparedIdentity(
  last: Identity,
  now: Identity,
  legacy: readonly (() => Masker | undefined)[],
  how: { sources: readonly Source[]; vars: Readonly<Record<string, unknown>>; salt: string; version: JournalVersion },
): Identity {
  const sameFiles = (files: Hashed) => fileChanges(last.files, files).length === 0;
  let { files, varsHash } = now;
  for (const masker of legacy) {
    if (sameFiles(files) && varsHash === last.varsHash) break;
    const m = masker();
    if (!m) continue;
    const old = filesHashes(how.sources, how.salt, m, how.version);
    if (!sameFiles(files) && sameFiles(old)) files = old;
    const oldVars = valuesHash(how.salt, m.maskValue({ ...how.vars }));
    if (varsHash !== last.varsHash && oldVars === last.varsHash) varsHash = oldVars;
  }
  return { files, varsHash };
}
