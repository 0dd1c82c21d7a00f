// The journal's hashes of the files the pipeline reads: keyed with the journal's salt, of each
// file's text with every secret the file holds masked (runner/file-secrets.ts fileMasker); those
// of a journal written before, as its run made them (legacy-masker.ts).
import { fileChanges } from '../pipeline/file-changes.ts';
import { fileHash, keyedHash } from '../journal/hashing.ts';
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
 * The files' hashes a resume compares with the journal's last run: `files` (every secret the file
 * holds masked). A journal written before that masking hashed them with the run's masker, taught
 * the secrets its selection reached: no version field tells them apart (both are version 2 or 3),
 * so where `files` differ each of `legacy` is tried in turn (the run's masker as it stands, for
 * the same selection; one taught what the selection the journal's run recorded reached, for
 * another --only: legacy-masker.ts), and an unchanged file is not said changed.
 */
export function comparedFiles(recorded: Hashed, files: Hashed, legacy: readonly (() => Hashed | undefined)[]): Hashed {
  if (fileChanges(recorded, files).length === 0) return files;
  for (const hashes of legacy) {
    const old = hashes();
    if (old && fileChanges(recorded, old).length === 0) return old;
  }
  return files;
}
