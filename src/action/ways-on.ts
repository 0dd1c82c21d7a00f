// The ways on a refusal gives, in the action's inputs (src/ways-on.ts has the CLI's flags).
import type { WaysOn } from '../ways-on.ts';

export const ACTION_WAYS: WaysOn = {
  resume: 'input journal',
  resumeOf: (journal) => `journal: ${journal}`,
  resumeFrom: (journal) => `journal: ${journal} (the job's journal output, or its run-id output with store:)`,
  inDoubt: (mode) => `in-doubt: ${mode}`,
  continueRollout: 'continue-rollout: true',
  continueParked: (run) => `continue: ${run} (with store:)`,
  vars: 'vars input',
  selection: 'only or skip input',
  same: 'vars, only and skip inputs',
  // No force: the action resumes no run whose files or inputs changed.
  takeOver: (previous) =>
    `resume run ${previous} itself (journal: ${previous} with store:, and in-doubt: skip or retry): the action takes no lease over from a run that left calls unchecked`,
  readBack: 'in-doubt: verify on a resume (journal: the journal output, or the run-id output with store:)',
  resumeDeciding: (modes) => `journal: (the journal output, or the run-id output with store:) and in-doubt: ${modes}`,
  parkedSignal: 'outcome parked',
  overrideFreeze: 'override-freeze: true with override-reason:',
  goOnParked: 'input continue: RUN_ID (with store:)',
  resumeRun:
    'journal: the journal output, or the run-id output with store:; continue: RUN_ID (with store:) of a parked run',
  resumeStored: (run) => `a resume from the store (journal: ${run} with store:)`,
  journalWritten:
    "the journal file a run of the action wrote (its journal output, e.g. downloaded as an artifact), or with store: the run's id",
  journalWriter: 'a run of the action (its journal output)',
  runnerJournal: "its runner's local journal file (that job's journal output, if it was uploaded as an artifact)",
  startAnew: 'a job with store: and neither journal: nor continue: (a new run)',
  // The action writes its journal under RUNNER_TEMP (or where input journal names, on a resume): no input moves it.
  freeSpace: "free space on the runner's disk",
  merging: 'input merge',
  mergedFiles: "the JSON reports or journals the action's jobs wrote (their report and journal outputs)",
  reportOrJournal: "a JSON report (the action's report output) nor a journal (its journal output)",
  varValues: 'values of input vars',
  goOnDecided:
    'a resume of its journal: journal: (the journal output, or the run-id output with store:), or continue: RUN_ID with store: of a parked run',
  setSecret: (name) => `set ${name} in the step's env: from a secret (${name}: \${{ secrets.${name} }})`,
  noServer:
    "add a servers: block, or set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD) in the step's env: or input url (with username and password)",
  findRun: 'give the run-id output of the job that ran it, with the store: it ran with',
  findParked: "a parked run's id is the run-id output of the job that parked it (its outcome output parked)",
  storeJobs: "the action's steps, pinned to one version for the whole rollout, and any enginectl command on the store",
  // Only input lease reaches this refusal in an action (a pipeline's lease: name is checked as it loads, an over value
  // made fit): a single-step action has no pipeline whose lease: it could offer.
  leaseExample: 'input lease prod-fleet',
  // Input lease takes no wait of its own: the pipeline's lease: gives it.
  leaseWait:
    "run the job again once it is released, or give the pipeline's lease: a wait (lease: { wait: 10m }; input lease takes its wait)",
  badValue: 'BAD_INPUT',
  giveVar: (example) => `give it in input vars (${example}, one a line)`,
  given: (kind) => `input ${kind === 'var' ? 'vars' : kind}`,
  example: (_kind, ...values) => `${values.join(' and ')}, one a line`,
};

/**
 * A single-step action's: its inputs are its pipeline (one step, no vars, only or skip), so a
 * resume is refused when they changed, in those words.
 */
export const STEP_ACTION_WAYS: WaysOn = {
  ...ACTION_WAYS,
  same: 'inputs',
  pipelineFile: "the step's inputs",
  leaseWait:
    "a single-step action does not wait for a lease (it has no pipeline whose lease: gives a wait): run the job again once it is released, or run the step from the root action with a pipeline's lease: { wait: 10m }",
};
