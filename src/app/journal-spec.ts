// What a run writes its journal with: the file opened and locked, its hashes' key and version, the
// files and values it hashed, and what a resume read of it that the run records or shows (the
// operator's decisions, the journal it resumed). journal-setup.ts makes it; run.ts writes by it.
import type { JournalFile } from '../journal/file.ts';
import type { JournalVersion } from '../journal/records.ts';
import type { Resume } from '../journal/resume.ts';
import type { OperatorDecision } from '../runner/rollout-result.ts';

export interface JournalSpec {
  /** The journal, opened and locked for this run. */
  file: JournalFile;
  /** The key of every hash in the journal (a resume reuses the first run's). */
  salt: string;
  /** The journal's version (a resume keeps the first run's: its files hashed as it hashed them); the newest when absent. */
  version?: JournalVersion | undefined;
  /** Every file the pipeline reads (or a single-step action's inputs), hashed with the salt. */
  files: { path: string; hash: string }[];
  /** The --var values as given, and their keyed hash (what a resume compares). */
  vars: Readonly<Record<string, unknown>>;
  varsHash: string;
  /** --resume: the operator's decisions to record as the run starts. */
  decisions?: Resume['decisions'] | undefined;
  /** --continue-rollout: the operator's word to go on past a halted wave, recorded as the run starts. */
  continueRollout?: { wave: number; by: string; at: number } | undefined;
  /** --resume: the last such word the journal holds already (every report shows it, as report JOURNAL does). */
  continuedBefore?: { wave: number; by: string; at: number } | undefined;
  /** --resume, --continue: the operator's decisions about a parked run the journal holds (enginectl decide), shown likewise. */
  decidedBefore?: readonly OperatorDecision[] | undefined;
  /** --resume: the servers' URLs (masked) in the journal's last run, to warn when they moved. */
  previousServers?: Record<string, string> | undefined;
  /** --resume: the pipeline that wrote the journal, and whether its pipeline file is this one's. */
  resumedFrom?: { journal: string; name: string; file: string; sameFile: boolean } | undefined;
}
