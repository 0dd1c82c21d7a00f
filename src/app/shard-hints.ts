// What to do about a step a sharded site left in doubt or unfinished (or cut short: its run stopped,
// its worker's lease lost). A worker takes no --resume
// and no --in-doubt (the hints of one run's journal): a site not ended is resumed by running its
// shard's index again, the worker that takes it over reading each call in doubt back; a site that
// ended with a call in doubt (verify could not tell, or the call lost its answer) failed in its
// wave, for an operator to check on the server and settle with a resume of the site's run (its
// decision recorded; report --merge --store tells the site as that resume left it). One the rollout
// halted without (its run left parked for its window, or by an abort) is taken over by no worker
// again: the operator checks it too.
import type { Report } from '../report/model.ts';
import { selectionWords } from '../pipeline/selection.ts';

/**
 * `report` with the hints of its steps in doubt or not finished those of a sharded run's site
 * `siteRun`; `ended`: the site has ended; `halted`: the rollout halted with the site not ended (its
 * run left parked for its window, or by an abort): no worker takes it over, nothing of it is sent.
 */
export function shardedHints(report: Report, siteRun: string, ended: boolean, halted = false): Report {
  const only = onlyOf(report.selection);
  return { ...report, steps: report.steps.map((s) => withShardedHint(s, siteRun, ended, halted, only)) };
}

/** The site's selection as a resume of its run gives it again (` --only site=site-0002`, each KEY=VALUE one shell word): its journal's run was limited to it. */
export const onlyOf = (selection: Pick<Report, 'selection'>['selection'] | undefined): string =>
  selectionWords({ only: selection?.only ?? {}, skip: {} });

/** A step (of a report, or as the worker's terminal prints it) with a sharded site's hint, when it is in doubt or not finished. */
export function withShardedHint<S extends Step>(
  s: S,
  siteRun: string,
  ended: boolean,
  halted = false,
  /** The site's selection (onlyOf), for the resume that settles a doubt. */
  only = '',
): S {
  const left = `the rollout halted at its wave: no worker takes the site over, nothing of it is sent again; check on the server (enginectl verify --store URL --run ${siteRun} reads back any call in doubt)`;
  const doubt = ended
    ? `the site counts as failed in its wave, and a sharded run takes no --in-doubt decision: check the call on the server (enginectl verify --store URL --run ${siteRun} reads its target back), then settle it with enginectl run FILE --store URL --resume ${siteRun}${only} --in-doubt skip (it was applied) or retry (it was not)`
    : halted
      ? left
      : `run its shard's index again: the worker that takes the site over reads the target back and sends again only what was not applied (where it cannot tell, the site fails in its wave)`;
  const unfinished = ended
    ? `the site ended before this step finished (enginectl verify --store URL --run ${siteRun} reads back any call in doubt)`
    : halted
      ? left
      : "run its shard's index again: the worker that takes the site over resumes it";
  // A doubt verify settled (a takeover's decision) is no longer one: its hint stays.
  const open = !s.decision || s.decision.decision !== 'skip';
  // A call left in doubt by a failure of its own (a 503 that does not say what the server did): the server's hint, then the doubt's.
  const failedInDoubt =
    !!s.inDoubt && open && s.error
      ? `${s.error.hint ? `${s.error.hint}; ` : ''}its call is in doubt: ${doubt}`
      : undefined;
  // Cut short by its run's stop for an error (its lease lost, released or lapsed; its journal not
  // written): the error's hint is a run's ("run --resume from the store"); the site's is its index's.
  const stopped = s.error?.code === 'CANCELLED' && !!s.error.hint;
  const hint =
    s.error?.code === 'IN_DOUBT' && open
      ? doubt
      : s.error?.code === 'NOT_FINISHED' || stopped
        ? unfinished
        : failedInDoubt;
  return hint && s.error ? { ...s, error: { ...s.error, hint } } : s;
}

/**
 * A step as the worker's terminal prints it when it finishes: one that failed with its call in doubt
 * ended the site (failed in its wave, for the operator to settle), as the site's report says; one
 * cut short (cancelled) leaves the site to the worker that takes it over.
 */
export const finishedHint = <S extends Step & { outcome: string }>(
  s: S,
  siteRun: string,
  selection: Pick<Report, 'selection'>['selection'],
): S => withShardedHint(s, siteRun, s.outcome !== 'cancelled', false, onlyOf(selection));

interface Step {
  error?: { code: string; message: string; hint?: string | null | undefined } | null | undefined;
  decision?: { decision: string } | null | undefined;
  inDoubt?: unknown;
}
