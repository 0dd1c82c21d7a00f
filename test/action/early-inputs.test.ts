// Every input of an action is checked before anything is loaded, as dry-run is: a bad in-doubt,
// continue, journal, webhook or lease input is what the action reports, first and alone, not a
// problem of the pipeline (a secret not set) or of the single step's inputs found while loading,
// nor left unread by a dry run. runAction in this process with a recording toolkit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** Each bad input, and the first line the action fails with. */
const CASES: [Record<string, string>, string][] = [
  [{ 'in-doubt': 'maybe' }, 'input in-doubt: maybe: say retry, skip, verify, verify-and-retry'],
  [
    { 'in-doubt': 'skip' },
    'input in-doubt goes with input journal (the journal to resume from), or with store: (for a re-run of the job, which goes on with the run its earlier attempt started)',
  ],
  [{ continue: 'RUN' }, 'input continue names a parked run of the store: give store, and no journal'],
  [
    { continue: 'RUN', journal: 'run.journal.jsonl', store: 'file:///tmp' },
    'input continue names a parked run of the store: give store, and no journal',
  ],
  [{ webhook: 'not a url' }, 'input webhook: not a URL (the URL is a secret and not shown)'],
  [{ webhook: 'ftp://hooks.example.com/x' }, 'input webhook: ftp: is not http:// or https://'],
  [{ lease: 'prod-fleet' }, 'the lease prod-fleet lives in a run store: set input store (or ENGINECTL_STORE)'],
];

test('a bad in-doubt, continue, journal, webhook or lease input of the root action is told first and alone (exit 2), before the pipeline is loaded and found wanting (a secret not set), in a run and a dry run', async () => {
  for (const dryRun of ['false', 'true']) {
    for (const [inputs, message] of CASES) {
      const run = await runActionInProcess(actionDef('enginectl'), {
        files: { 'release.yml': PIPELINE },
        inputs: { pipeline: 'release.yml', url: 'http://127.0.0.1:9', 'dry-run': dryRun, ...inputs },
        // No PROD_TOKEN: loading the pipeline refuses it, after the inputs it is loaded for.
      });
      const what = `dry-run ${dryRun}, ${JSON.stringify(inputs)}`;
      assert.equal(run.code, ExitCode.invalidInput, `${what}: ${run.failed.join('\n')}`);
      assert.deepEqual(run.failed, [message], what);
      assert.deepEqual(run.errors, [], `${what}: no annotation of the pipeline: it was not judged`);
    }
  }
});

test("a single-step action's bad in-doubt, continue or webhook input is told before its step's inputs are judged (no target given)", async () => {
  for (const [inputs, message] of CASES.slice(0, 6)) {
    const run = await runActionInProcess(actionDef('vfs-update'), {
      inputs: { url: 'http://127.0.0.1:9', files: '1001', ...inputs },
    });
    assert.equal(run.code, ExitCode.invalidInput, `${JSON.stringify(inputs)}: ${run.failed.join('\n')}`);
    assert.deepEqual(run.failed, [message], JSON.stringify(inputs));
  }
});

test('a dry run refuses what it would leave silently undone (a journal, a continue, a webhook, a Deployment), and continue-rollout goes with journal or continue, as run --dry-run and --continue-rollout are refused (exit 2)', async () => {
  const journal = 'input dry-run: a dry run sends and records nothing, so input';
  for (const [inputs, message] of [
    [{ 'dry-run': 'true', journal: 'run.journal.jsonl' }, `${journal} journal is not read`],
    [{ 'dry-run': 'live', journal: 'run.journal.jsonl' }, `${journal} journal is not read`],
    [{ 'dry-run': 'true', continue: 'RUN', store: 'file:///tmp' }, `${journal} continue is not read`],
    [{ 'dry-run': 'true', webhook: 'https://hooks.example.com/x' }, `${journal} webhook is not read`],
    [{ 'dry-run': 'live', 'deployment-environment': 'production' }, `${journal} deployment-environment is not read`],
    [
      { 'continue-rollout': 'true' },
      'input continue-rollout goes with input journal (the journal of the halted rollout) or continue',
    ],
  ] as [Record<string, string>, string][]) {
    for (const def of [actionDef('enginectl'), actionDef('transaction-log-clear')]) {
      const run = await runActionInProcess(def, {
        files: { 'release.yml': PIPELINE },
        inputs: { ...(def.uses ? {} : { pipeline: 'release.yml' }), url: 'http://127.0.0.1:9', ...inputs },
      });
      const what = `${def.id}, ${JSON.stringify(inputs)}`;
      assert.equal(run.code, ExitCode.invalidInput, `${what}: ${run.failed.join('\n')}`);
      assert.deepEqual(run.failed, [message], what);
    }
  }
});
