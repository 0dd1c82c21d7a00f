// The actions' core, runAction, in this process with a recording toolkit (test/helpers/toolkit.ts)
// against the emulator over HTTP: exit codes, outputs, annotations (their file, line and column),
// the job summary, and the calls the server received. What only the bundles show (the runner's
// INPUT_* and GITHUB_OUTPUT files, @actions/core's encoding, Node 20 and 24) is in bundles.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { draft2020 } from '../helpers/schemas.ts';
import { startGitHubApi } from '../helpers/action.ts';
import { runActionInProcess, type InProcessRun } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    name: Reports to production
    uses: update/vfs
    with: { target: prod, files: "\${{ vars.files }}" }
  - id: sync
    name: Sync the replicas
    uses: replication/sync
`;

const validReport = draft2020(new URL('../../schema/report.schema.json', import.meta.url).pathname);

function assertReport(run: InProcessRun, outcome: string) {
  assert.ok(run.outputs.report && existsSync(run.outputs.report), `output report is a file: ${run.outputs.report}`);
  const report = JSON.parse(readFileSync(run.outputs.report, 'utf8')) as { outcome: string };
  assert.ok(validReport(report), JSON.stringify(validReport.errors));
  assert.equal(report.outcome, outcome);
  for (const ext of ['.html', '.junit.xml'])
    assert.ok(existsSync(run.outputs.report.replace(/\.json$/, ext)), `${ext} beside the JSON report`);
}

test('a failed step: exit 1, outcome failure, an error annotation on the step line of the pipeline file', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'pipelines/release.yml': PIPELINE },
    inputs: { pipeline: 'pipelines/release.yml', vars: 'files=[999999]', url, username: 'admin', password: 'admin' },
    env: { PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.failed);
  assert.equal(run.outputs.outcome, 'failure');
  assert.ok(
    run.errors.some(
      (e) =>
        e.props?.title === 'Reports to production failed' &&
        e.props.file === 'pipelines/release.yml' &&
        e.props.startLine === 6,
    ),
    JSON.stringify(run.errors),
  );
  assert.deepEqual(run.failed, ['"Release" failed: Reports to production']);
  assert.match(run.summary, /^## ❌ Release: failure/m);
  assert.match(run.summary, /### Failed steps/);
  assertReport(run, 'failure');
});

test('a partial replication failure: the failed target in the summary table and an annotation', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.failReplication('REPLICA-2', 'disk full');
  const run = await runActionInProcess(actionDef('replication-sync'), {
    inputs: { url, username: 'admin', password: 'admin' },
  });
  assert.equal(run.code, ExitCode.failed);
  assert.equal(run.outputs.failed, '1');
  assert.match(run.summary, /1\/2 targets \(failed: REPLICA-2\)/);
  assert.ok(
    run.errors.some(
      (e) =>
        e.props?.title === 'Sync replication failed' &&
        /^replication failed for REPLICA-2 \(disk full\)/.test(e.message),
    ),
    JSON.stringify(run.errors),
  );
});

test("the root action's only and skip inputs: a key given twice keeps either value, skip leaves instances out; the summary says so", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const pipeline = `version: 1
targets:
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: engines
    uses: monitoring/engines
    matrix: { site: [a, b, c] }
  - id: system
    uses: update/system
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}" }
`;
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'pipelines/sites.yml': pipeline },
    inputs: {
      pipeline: 'pipelines/sites.yml',
      only: 'site=a\nsite=c',
      skip: 'target=staging',
      url,
      username: 'admin',
      password: 'admin',
    },
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  const report = JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as {
    steps: { matrix: Record<string, string> }[];
    selection: unknown;
  };
  assert.deepEqual(
    report.steps.map((s) => s.matrix),
    [{ site: 'a' }, { site: 'c' }, { target: 'prod' }],
  );
  assert.deepEqual(report.selection, { only: { site: ['a', 'c'] }, skip: { target: ['staging'] } });
  assert.equal(emulator.count('POST', '/api/devops/v1/update/system'), 1);
  assert.match(run.summary, /limited to: site=a or site=c; without target=staging/);
});

test("an invalid pipeline: exit 2, an annotation on the file's line and column, nothing called", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: {
      'pipelines/bad.yml':
        'version: 1\nsteps:\n  - uses: update/vfs\n    with: { target: { server: s, database: D, token: t } }\n  - uses: monitoring/nope\n',
    },
    inputs: { pipeline: 'pipelines/bad.yml', url, username: 'admin', password: 'admin' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.equal(run.outputs.outcome, 'failure');
  const at = (line: number, col: number) =>
    run.errors.find(
      (e) =>
        e.props?.title === 'enginectl: invalid pipeline' &&
        e.props.file === 'pipelines/bad.yml' &&
        e.props.startLine === line &&
        e.props.startColumn === col,
    )?.message;
  assert.match(at(4, 5) ?? '', /^steps\[0\]\.with\.files: update\/vfs needs files or directories/);
  assert.equal(at(5, 11), 'unknown step type "monitoring/nope"\nhint: did you mean "monitoring/engines"?');
  assert.match(run.summary, /## ❌ enginectl: invalid input/);
  assert.equal(emulator.requests.length, 0);
});

test('a pipeline that is a FIFO fed past 1 MiB is read up to the limit and refused as the CLI refuses it (exit 2), not read to its end', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'enginectl-workspace-'));
  mkdirSync(join(workspace, 'pipelines'));
  const path = join(workspace, 'pipelines', 'huge.yml');
  execFileSync('mkfifo', [path]);
  // 2 MiB offered once the action opens the FIFO; a reader that stops at the limit and closes it refuses the rest (EPIPE).
  const fed = (async () => {
    const writer = await open(path, 'w');
    try {
      await writer.writeFile(`version: 1\n${'#'.repeat(2 * 1024 * 1024)}\n`);
      return 'all of it';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code;
    } finally {
      await writer.close();
    }
  })();
  const run = await runActionInProcess(actionDef('enginectl'), {
    workspace,
    inputs: { pipeline: 'pipelines/huge.yml', url: 'http://127.0.0.1:9', username: 'a', password: 'b' },
  });
  assert.equal(run.code, ExitCode.invalidInput, run.failed.join('\n'));
  const annotation = run.errors.find((e) => e.props?.file === 'pipelines/huge.yml' && e.props.startLine === 1);
  assert.match(
    annotation?.message ?? JSON.stringify(run.errors),
    /^the file is over 1048576 bytes; pipelines are limited to 1048576 bytes \(1 MiB\)\nhint: /,
  );
  assert.equal(await fed, 'EPIPE', 'the read stopped at the limit');
});

test('single-step inputs are checked by input name: exit 2, what to write', async (t) => {
  const { url } = await startEmulator(t);
  const target = { url, 'target-server': 's', 'target-database': 'D', 'target-token': 'tok-123' };
  const run = await runActionInProcess(actionDef('vfs-update'), {
    inputs: { ...target, 'disable-engine-restart': 'yes' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(run.failed.join('\n'), /input disable-engine-restart: "yes" is not a boolean/);
  const missing = await runActionInProcess(actionDef('vfs-update'), { inputs: target });
  assert.equal(missing.code, ExitCode.invalidInput);
  assert.ok(
    missing.errors.some(
      (e) =>
        e.props?.title === 'enginectl: invalid input' &&
        e.message ===
          'input files: update/vfs needs files or directories (at least one of them, with at least one value)',
    ),
    JSON.stringify(missing.errors),
  );
});

test('every boolean input is checked before anything runs: a wrong summary or pr-comment is exit 2 with nothing sent, not a warning after the writes', async (t) => {
  for (const [name, value] of [
    ['summary', 'nope'],
    ['pr-comment', 'yes'],
  ]) {
    const { url, emulator } = await startEmulator(t);
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: { 'pipelines/release.yml': PIPELINE },
      inputs: {
        pipeline: 'pipelines/release.yml',
        vars: 'files=[1001]',
        url,
        username: 'admin',
        password: 'admin',
        [name!]: value!,
      },
      env: { PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, ExitCode.invalidInput, `${name}: ${run.failed.join('\n')}`);
    assert.match(run.failed.join('\n'), new RegExp(`input ${name}: "${value}" is not a boolean`));
    assert.equal(emulator.requests.length, 0, `${name}: nothing sent`);
  }
  // dry-run takes a third value: its refusal names it.
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'pipelines/release.yml': PIPELINE },
    inputs: {
      pipeline: 'pipelines/release.yml',
      vars: 'files=[1001]',
      url: 'http://127.0.0.1:9',
      username: 'a',
      password: 'b',
      'dry-run': 'maybe',
    },
    env: { PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(run.failed.join('\n'), /input dry-run: "maybe" is none of true, false or live/);
});

test('an invalid dry-run input is told first, before the pipeline is loaded and found wanting (a secret not set)', async () => {
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'pipelines/release.yml': PIPELINE },
    inputs: {
      pipeline: 'pipelines/release.yml',
      vars: 'files=[1001]',
      url: 'http://127.0.0.1:9',
      username: 'a',
      password: 'b',
      'dry-run': 'maybe',
    },
    // No PROD_TOKEN: loading the pipeline refuses it, after the inputs it is loaded for.
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.deepEqual(run.failed, ['input dry-run: "maybe" is none of true, false or live']);
  assert.deepEqual(run.errors, [], 'no annotation of the pipeline: it was not judged');
});

test("single-step list inputs split on semicolons too, as a pipeline's lists do", async (t) => {
  const { url } = await startEmulator(t);
  const target = {
    url,
    username: 'admin',
    password: 'admin',
    'target-server': 'prod-db.example.com',
    'target-database': 'PROD',
    'target-token': 'prod-token',
  };
  const inputsOf = (run: InProcessRun) =>
    (JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as { steps: { inputs: Record<string, unknown> }[] })
      .steps[0]!.inputs;
  const vfs = await runActionInProcess(actionDef('vfs-update'), { inputs: { ...target, files: '1001;1002' } });
  assert.equal(vfs.code, 0, vfs.failed.join('\n'));
  assert.deepEqual(inputsOf(vfs).files, [1001, 1002]);
  const system = await runActionInProcess(actionDef('system-update'), {
    inputs: { ...target, recipients: 'ops@example.com; dba@example.com' },
  });
  assert.equal(system.code, 0, system.failed.join('\n'));
  assert.deepEqual(inputsOf(system).recipients, ['ops@example.com', 'dba@example.com']);
});

test('dry-run: the plan in the log and the summary, no call, outcome dry-run', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('vfs-update'), {
    inputs: {
      url,
      username: 'admin',
      password: 'admin',
      'dry-run': 'true',
      files: '[1001]',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-token': 'prod-token',
    },
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  assert.equal(run.outputs.outcome, 'dry-run');
  assert.match(run.summary, /POST \/api\/devops\/v1\/update\/vfs/);
  assert.match(run.log.join('\n'), /POST \/api\/devops\/v1\/update\/vfs/, 'the plan in the log');
  assert.equal(emulator.requests.length, 0);
});

test("dry-run: a step's name carrying ESC or a bidi override reaches the job summary made visible, as in a run's summary", async (t) => {
  const { url, emulator } = await startEmulator(t);
  for (const dryRun of ['true', 'live']) {
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: {
        'pipelines/release.yml': PIPELINE.replace(
          'name: Reports to production',
          'name: "Reports \\e[31mto\\u202Enoitcudorp\\u202C"',
        ),
      },
      inputs: {
        pipeline: 'pipelines/release.yml',
        vars: 'files=[1001]',
        url,
        username: 'admin',
        password: 'admin',
        'dry-run': dryRun,
      },
      env: { PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, ExitCode.ok, `dry-run ${dryRun}: ${run.failed.join('\n')}`);
    assert.match(run.summary, /Reports ␛\[31mto<U\+202E>noitcudorp<U\+202C>/, `dry-run ${dryRun}`);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(run.summary, /[\u001b\u202A-\u202E]/, `dry-run ${dryRun}: no raw control in the job summary`);
  }
  assert.ok(
    emulator.requests.every((r) => r.method === 'GET'),
    'no write sent',
  );
});

test('a continue-on-error step that left its write in doubt: the action fails (exit 1), saying why, its outcome a success; its Deployment a failure, not a success', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const github = await startGitHubApi(t);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: {
      'pipelines/release.yml': PIPELINE.replace(
        '    uses: update/vfs\n',
        '    uses: update/vfs\n    continue-on-error: true\n',
      ),
    },
    inputs: {
      pipeline: 'pipelines/release.yml',
      vars: 'files=[1001]',
      url,
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
    },
    env: { PROD_TOKEN: 'prod-token' },
    githubApi: github.url,
  });
  assert.equal(run.code, ExitCode.failed);
  assert.equal(run.outputs.outcome, 'success');
  const last = github.calls.at(-1)!;
  assert.equal(last.body.state, 'failure');
  assert.match(String(last.body.description), /1 write\(s\) left in doubt/);
  assert.deepEqual(run.failed, [
    `"Release": 1 step run(s) left a write in doubt: continue-on-error lets a failure pass, not a doubt; check it on the server, or decide it from the run's journal (journal: (the journal output, or the run-id output with store:) and in-doubt: skip|retry|verify)`,
  ]);
});

test('annotations name the pipeline file as the checkout does, however the input spells its path (./, a .. segment), as an included file is named', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', status: 500 });
  for (const pipeline of ['./pipelines/release.yml', 'pipelines/../pipelines/release.yml']) {
    const failed = await runActionInProcess(actionDef('enginectl'), {
      files: { 'pipelines/release.yml': 'version: 1\nname: R\nsteps:\n  - uses: transaction-log/clear\n' },
      inputs: { pipeline, url, username: 'admin', password: 'admin' },
    });
    assert.equal(failed.code, ExitCode.failed, failed.failed.join('\n'));
    assert.deepEqual(
      failed.errors.map((e) => [e.props?.file, e.props?.startLine]),
      [['pipelines/release.yml', 4]],
      pipeline,
    );
    const invalid = await runActionInProcess(actionDef('enginectl'), {
      files: { 'pipelines/release.yml': 'version: 1\nsteps:\n  - uses: monitoring/nope\n' },
      inputs: { pipeline, url, username: 'admin', password: 'admin' },
    });
    assert.deepEqual(
      invalid.errors.map((e) => e.props?.file),
      ['pipelines/release.yml'],
      pipeline,
    );
  }
});

test("a single-step action's input of the wrong type is told in the pipeline validator's words (what was expected, what was given), not zod's", async (t) => {
  const { url } = await startEmulator(t);
  const target = { url, 'target-server': 's', 'target-database': 'D', 'target-token': 'tok-123' };
  for (const [files, said] of [
    ['abc', /input files: expected a number, got the string "abc"/],
    ['1.5', /input files: expected a whole number, got the number 1\.5/],
  ] as const) {
    const run = await runActionInProcess(actionDef('vfs-update'), { inputs: { ...target, files } });
    assert.equal(run.code, ExitCode.invalidInput, run.failed.join('\n'));
    const errors = run.errors.map((e) => e.message).join('\n');
    assert.match(errors, said);
    assert.doesNotMatch(errors, /Invalid input|received/);
  }
});
