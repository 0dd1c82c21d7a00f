// The inputs of a run an action reads besides its pipeline or its step: journal, continue,
// in-doubt, webhook, lease (with store). Checked before anything is loaded, as dry-run and the
// boolean inputs are: a bad one is told first and alone, never after the pipeline's problems (a
// secret not set) or the step's, and never left unread by a dry run.
import { webhookUrl } from '../app/channels/webhook.ts';
import { STORE_VARIABLE } from '../app/stored-run.ts';
import { UsageError } from '../errors.ts';
import { parseInDoubt, type InDoubtMode } from '../journal/resume.ts';
import type { Masker } from '../runner/masker.ts';
import type { Env } from '../runner/scope.ts';
import { booleanInput } from './inputs.ts';
import type { Toolkit } from './toolkit.ts';

export interface RunInputs {
  /** The parked run of the store to go on with (input continue); '' for none. */
  continued: string;
  /** What the run resumes from: the parked run, else input journal (a file, or with a store a run id); '' for a new run. */
  resumeFrom: string;
  inDoubt: InDoubtMode | undefined;
  webhook: URL | undefined;
}

/** The store URL given: input store, else ENGINECTL_STORE; '' for none (an empty one is refused where it is opened: store-inputs.ts). */
export function storeGiven(kit: Toolkit, env: Env): string {
  return kit.getInput('store').trim() || env[STORE_VARIABLE] || '';
}

/** A fleet lease without a run store to hold it in: refused as bad input. */
export function leaseWithoutStore(name: string): UsageError {
  return new UsageError('BAD_INPUT', `the lease ${name} lives in a run store: set input store (or ENGINECTL_STORE)`);
}

/** Input continue: a parked run of the store to go on with (as run --continue), resumed from the store as journal: RUN_ID is. */
export function continueInput(kit: Toolkit, env: Env): string {
  const continued = kit.getInput('continue').trim();
  if (continued && (kit.getInput('journal').trim() || !storeGiven(kit, env)))
    throw new UsageError('BAD_INPUT', 'input continue names a parked run of the store: give store, and no journal');
  return continued;
}

/** What a dry run (true or live) would leave silently undone: refused, as run --dry-run refuses --journal and --webhook. */
const DRY_RUN_CLASH = ['journal', 'continue', 'webhook', 'deployment-environment'];

/** `dry`: the action makes a dry run (dry-run: true or live). */
export function runInputs(kit: Toolkit, env: Env, masker: Masker, dry: boolean): RunInputs {
  const continued = continueInput(kit, env);
  const resumeFrom = continued || kit.getInput('journal').trim();
  const given = kit.getInput('in-doubt').trim();
  const inDoubt = given === '' ? undefined : parseInDoubt(given, 'input in-doubt:', 'BAD_INPUT');
  // With a store on GitHub, a re-run of the job (attempt 2 on) goes on with its earlier attempt's run
  // (rerun.ts): what to do with a write it left in doubt is said before it is known whether there is
  // one. A first attempt has nothing to decide: refused, as without a store.
  const rerun = storeGiven(kit, env) && /^([2-9]|[1-9]\d+)$/.test(env.GITHUB_RUN_ATTEMPT ?? '');
  if (inDoubt && !resumeFrom && !rerun)
    throw new UsageError(
      'BAD_INPUT',
      'input in-doubt goes with input journal (the journal to resume from), or with store: (for a re-run of the job, which goes on with the run its earlier attempt started)',
    );
  const hook = kit.getInput('webhook').trim();
  const webhook = hook === '' ? undefined : webhookUrl(hook, masker, 'input webhook', 'BAD_INPUT');
  // The pipeline's own lease: (without the input) is the pipeline's, checked once it is loaded (store-inputs.ts).
  const lease = kit.getInput('lease').trim();
  if (lease !== '' && !storeGiven(kit, env)) throw leaseWithoutStore(lease);
  if (booleanInput(kit.getInput, 'continue-rollout') && !resumeFrom && !rerun)
    throw new UsageError(
      'BAD_INPUT',
      'input continue-rollout goes with input journal (the journal of the halted rollout) or continue',
    );
  const clash = dry ? DRY_RUN_CLASH.find((name) => kit.getInput(name).trim() !== '') : undefined;
  if (clash)
    throw new UsageError(
      'BAD_INPUT',
      `input dry-run: a dry run sends and records nothing, so input ${clash} is not read`,
      {
        hint: `leave ${clash} out of the dry run's with:, or set dry-run: false to run`,
      },
    );
  return { continued, resumeFrom, inDoubt, webhook };
}
