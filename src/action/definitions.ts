// Longer than 250 lines: the inputs and outputs of every action, each described, are data read as one table.
// The actions enginectl ships: their inputs and outputs, with descriptions. The action.yml files
// and the tables of docs/actions.md are generated from here (`npm run actions`) and tested current.
import { SYSTEM_UPDATE_FLAGS, VFS_UPDATE_FLAGS } from '../api/schemas/devops.ts';
import { FLAG_DOCS } from '../steps/input-docs.ts';
import { STEP_TYPES } from '../steps/registry.ts';

export interface InputDef {
  description: string;
  required?: boolean;
  default?: string;
  /** A credential: masked before anything is printed (a test holds every password and token input to it). */
  secret?: true;
}

export type StepActionId = 'vfs-update' | 'system-update' | 'replication-sync' | 'transaction-log-clear';

export interface ActionDef {
  /** `enginectl` for the root action, else the directory under actions/. */
  id: 'enginectl' | StepActionId;
  name: string;
  description: string;
  /** The step type a single-step action runs. */
  uses?: string;
  inputs: Record<string, InputDef>;
  outputs: Record<string, string>;
  /** Bundle, relative to the repository root. */
  bundle: string;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const SERVER: Record<string, InputDef> = {
  url: {
    description:
      'Base URL of the enterprise API (the default server), e.g. https://erp.example.com. Overrides ENGINE_URL.',
  },
  username: { description: 'User name for the API (HTTP Basic). Overrides ENGINE_USERNAME.' },
  password: {
    description:
      'Password for the API. Masked in every log and report. Overrides ENGINE_PASSWORD; pass it from a secret.',
    secret: true,
  },
};

const REPORTING: Record<string, InputDef> = {
  'dry-run': {
    description:
      "true: validate and show each call that would be made (secrets masked); make none. It needs no secret: one not set stands in, masked, and a warning names it. live: the preflight: the read-only steps run for real with GET requests only (a gate holds, would wait or fails now; each write shows what it would change, and is not sent); a step that fails now fails the action; it needs every secret it uses, as a run does. false: run. Empty (an expression that evaluated to '') is refused, as for every boolean input: GitHub gives the default only to an input left out of with:.",
    default: 'false',
  },
  summary: { description: 'Write the Markdown report to the job summary.', default: 'true' },
  'pr-comment': {
    description: 'On a pull request, keep one comment with the report, updated on each run.',
    default: 'false',
  },
  'deployment-environment': {
    description:
      'When set, record a GitHub Deployment to this environment and its statuses: in_progress, then success, failure (a step failed, or a write left in doubt) or error (cancelled, or not run); a parked run leaves it in_progress.',
  },
  webhook: {
    description:
      'POST the JSON report (the report output) to this URL as the run ends, Content-Type application/json. A secret: pass it from one (a token in its query string or path is masked everywhere). A failure is a warning; the outcome stands.',
    secret: true,
  },
  'github-token': {
    description: 'Token for the PR comment and the Deployment (needs pull-requests: write, deployments: write).',
    default: '${{ github.token }}',
    secret: true,
  },
  journal: {
    description:
      'Resume from this run journal (the journal output of an earlier run, e.g. downloaded as an artifact): what succeeded is not sent again, the gates run again, and the run is appended to it. Empty: a new journal in RUNNER_TEMP.',
  },
  store: {
    description:
      "A run store (s3://BUCKET/PREFIX, the AWS credential chain: an OIDC role, keys in the environment; or file:///PATH a directory every runner mounts; also ENGINECTL_STORE): the run's journal is kept there, each call's record before the call leaves, and journal then names a run id of the store to resume, from any machine. A re-run of the job (GitHub's Re-run jobs: the same workflow run, a later attempt, the same inputs) goes on with the run an earlier attempt of this step started, as journal: RUN_ID would: what it applied is not sent again.",
  },
  lease: {
    description:
      "With store: hold this fleet lease while the run sends (as lease: in the pipeline): one run at a time for the fleet, across jobs, workflows and CI systems. It waits for a run that holds it as the pipeline's lease: says (its wait:, 0s without one: refused at once, LEASE_HELD); a single-step action never waits.",
  },
  'continue-rollout': {
    description:
      "With journal (or store: on a re-run of the job): go on past the wave at which the journal's rollout halted (recorded in the journal as your decision). Without it, resuming a halted rollout sends nothing and fails.",
    default: 'false',
  },
  continue: {
    description:
      'With store: the id of a parked run (outcome parked: a bake longer than park-after, or a decision on-failure: decide asks for) to go on with, as enginectl run --continue: nothing done is sent again; a bake not yet elapsed, or a decision not yet made (enginectl decide), parks it again.',
  },
  'in-doubt': {
    description:
      'With journal (or store: on a re-run of the job): what to do with a call the earlier run sent and never saw answered. skip: treat it as applied (recorded as your decision); retry: send it again; verify: read its target back, do not send again what was applied, stop on anything else; verify-and-retry: as verify, and send again what was not applied. Empty: the run stops before sending anything while a call is in doubt.',
  },
};

/** The inputs every action reads for its run (the server, the reports, the journal, the store): never a step's input. */
export const RUN_INPUT_NAMES: ReadonlySet<string> = new Set([...Object.keys(SERVER), ...Object.keys(REPORTING)]);

const OUTPUTS: Record<string, string> = {
  outcome:
    'success, failure or cancelled (dry-run for a dry run); parked: the run is saved in the store (a bake, a decision), the step not failed; go on with input continue',
  report: 'Path of the JSON report (docs/report-format.md); the HTML and JUnit reports are beside it',
  outputs: "JSON of every step's outputs, by step id",
  journal:
    'Path of the run journal (one JSON line per event, in RUNNER_TEMP): upload it as an artifact; enginectl report renders it, also after a crash',
  'run-id':
    'With store: the id of the run in the store (resume it with journal: RUN_ID, report it with enginectl report --store URL --run RUN_ID)',
};

const connection = (prefix: 'target' | 'source', what: string): Record<string, InputDef> => ({
  [`${prefix}-server`]: {
    description: `Address of the ${what} server.`,
    ...(prefix === 'target' ? { required: true } : {}),
  },
  [`${prefix}-database`]: {
    description: `Name of the ${what} database.`,
    ...(prefix === 'target' ? { required: true } : {}),
  },
  [`${prefix}-token`]: {
    description: `Auth token of the ${what} database; else ${prefix}-username and ${prefix}-password. Masked.`,
    secret: true,
  },
  [`${prefix}-username`]: { description: `User name on the ${what} database (with ${prefix}-password).` },
  [`${prefix}-password`]: { description: `Password on the ${what} database. Masked.`, secret: true },
});

/** The step's own descriptions (its inputDocs), shared with the pipeline JSON Schema. */
const STEP = STEP_TYPES.get('update/system')!.inputDocs;

function updateInputs(flags: readonly string[]): Record<string, InputDef> {
  return {
    ...connection('target', 'target'),
    ...connection('source', 'source (default: the database the API runs on)'),
    'update-type': { description: STEP['update-type']! },
    recipients: { description: 'Notification recipients: one per line, comma- or semicolon-separated.' },
    message: { description: STEP.message! },
    'tracking-id': { description: STEP['tracking-id']! },
    ...Object.fromEntries(flags.map((f) => [kebab(f), { description: FLAG_DOCS[f] ?? f, default: 'false' }])),
  };
}

const UPDATE_OUTPUTS: Record<string, string> = {
  success: 'true when the server reported success',
  versions: 'Schema versions applied, as JSON',
  inserts: 'Entries inserted',
  updates: 'Entries updated',
  deletes: 'Entries deleted',
  'client-version':
    "The target database's client (application) version after the update, e.g. 2026.11, as the result's targetDatabaseVersionInfo says",
  'server-version': "The target database's server (Engine) version after the update, e.g. 26.11.0",
};

export const ACTIONS: readonly ActionDef[] = [
  {
    id: 'enginectl',
    name: 'enginectl',
    description:
      'Run an enginectl deployment pipeline (vfs and system updates, replication, transaction-log clears, gates) and report it.',
    inputs: {
      pipeline: {
        description: 'Path of the pipeline file, e.g. pipelines/multi-target-release.yml. Required, except with merge.',
      },
      merge: {
        description:
          'Merge mode, for a final job after a fleet\'s jobs: the JSON reports (or journals) they wrote, downloaded as artifacts: a directory (every *.json and *.journal.jsonl under it; a journal beside its own report is taken once) or files, one per line. One report of the whole fleet (a row per job; an instance no report covers is "no report" and fails it) in the summary, the PR comment, the report files and outputs; nothing is run.',
      },
      vars: { description: 'Var overrides, one NAME=VALUE per line (values read as YAML).' },
      only: {
        description:
          'Keep only the matrix instances with these values, one KEY=VALUE per line (as run --only; a key given twice keeps either value): one target per job of a job matrix.',
      },
      skip: {
        description: 'Leave out the matrix instances with these values, one KEY=VALUE per line (as run --skip).',
      },
      'override-freeze': {
        description:
          "Start the writes that do not fit their window (windows:, freezes:) anyway, as enginectl run --override-freeze: only when the job's identity meets a rule of the pipeline's override-freeze: (the actor, or the repository, ref and workflow GitHub's OIDC claims mirror; matched on the job's variables, not on a verified token), else refused before anything is sent. Recorded in the journal before each such write leaves, and in every report. Needs override-reason.",
        default: 'false',
      },
      'override-reason': {
        description:
          'With override-freeze: why (an incident, a ticket), recorded with the override in the journal and every report. Refused without override-freeze: true.',
      },
      ...SERVER,
      ...REPORTING,
    },
    outputs: OUTPUTS,
    bundle: 'dist/action/main.mjs',
  },
  {
    id: 'vfs-update',
    name: 'enginectl vfs-update',
    description:
      'Update vfs files and directories on a target database (POST update/vfs), with the server report in the job summary.',
    uses: 'update/vfs',
    inputs: {
      files: {
        description:
          'Keys of vfs files: one per line, comma- or semicolon-separated, or [1001, 1002]. files or directories is required.',
      },
      directories: { description: 'Vfs directories: one per line, comma- or semicolon-separated.' },
      ...updateInputs(VFS_UPDATE_FLAGS),
      ...SERVER,
      ...REPORTING,
    },
    outputs: { ...OUTPUTS, ...UPDATE_OUTPUTS, summary: 'The summary line of the vfs update' },
    bundle: 'dist/action/vfs-update.mjs',
  },
  {
    id: 'system-update',
    name: 'enginectl system-update',
    description:
      'Upgrade the Engine and the schema of a target database (POST update/system), with the server report in the job summary.',
    uses: 'update/system',
    inputs: {
      products: {
        description: 'Product keys: one per line, comma- or semicolon-separated, or [1, 2]. Default: every product.',
      },
      ...updateInputs(SYSTEM_UPDATE_FLAGS),
      ...SERVER,
      ...REPORTING,
    },
    outputs: { ...OUTPUTS, ...UPDATE_OUTPUTS },
    bundle: 'dist/action/system-update.mjs',
  },
  {
    id: 'replication-sync',
    name: 'enginectl replication-sync',
    description: 'Sync one replication configuration, or every enabled one; fails when a target fails.',
    uses: 'replication/sync',
    inputs: {
      config: { description: STEP_TYPES.get('replication/sync')!.inputDocs.config! },
      ...SERVER,
      ...REPORTING,
    },
    outputs: {
      ...OUTPUTS,
      results: 'The replication results, as JSON',
      succeeded: 'Targets synced',
      failed: 'Targets that failed',
      inserts: 'Entries inserted, all targets',
      updates: 'Entries updated, all targets',
      deletes: 'Entries deleted, all targets',
    },
    bundle: 'dist/action/replication-sync.mjs',
  },
  {
    id: 'transaction-log-clear',
    name: 'enginectl transaction-log-clear',
    description: 'Clear the transaction log (iLog) of the database the API runs on.',
    uses: 'transaction-log/clear',
    inputs: { ...SERVER, ...REPORTING },
    outputs: { ...OUTPUTS, status: 'HTTP status of the clear' },
    bundle: 'dist/action/transaction-log-clear.mjs',
  },
];

export function actionDef(id: ActionDef['id']): ActionDef {
  return ACTIONS.find((a) => a.id === id)!;
}

/** Where the action.yml of an action lives, relative to the repository root. */
export function actionDir(def: ActionDef): string {
  return def.id === 'enginectl' ? '.' : `actions/${def.id}`;
}
