// GitHub's own local runner of JavaScript actions (@github/local-action, a devDependency) runs
// the root action and a single-step action: each entry exports run(), as the tool requires.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { localAction } from '../helpers/local-action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { ROOT } from '../helpers/action.ts';

test(
  '@github/local-action runs the root action and a single-step action to success',
  { timeout: 240_000 },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    const workspace = mkdtempSync(join(tmpdir(), 'enginectl-la-ws-'));
    const temp = join(workspace, 'runner-temp');
    mkdirSync(temp);
    writeFileSync(
      join(workspace, 'p.yml'),
      'version: 1\nname: Local\nsteps:\n  - id: clear\n    uses: transaction-log/clear\n',
    );
    const common = {
      INPUT_URL: url,
      INPUT_USERNAME: 'admin',
      INPUT_PASSWORD: 'admin',
      'INPUT_DRY-RUN': 'false',
      INPUT_SUMMARY: 'true',
      'INPUT_PR-COMMENT': 'false',
      GITHUB_REPOSITORY: 'acme/erp',
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: temp,
    };

    const root = await localAction('.', 'src/action/entries/main.ts', { ...common, INPUT_PIPELINE: 'p.yml' });
    assert.equal(root.code, 0, root.out.slice(-3000));
    assert.match(root.out, /'outcome'\s*│\s*'success'/);

    const single = await localAction(
      'actions/transaction-log-clear',
      '../../src/action/entries/transaction-log-clear.ts',
      common,
    );
    assert.equal(single.code, 0, single.out.slice(-3000));
    assert.match(single.out, /'status'\s*│\s*'200'/);
    assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 2);
  },
);

test(
  "docs/github-actions.md's local check, as written: its .env and command run the root action's dry run of pipelines/demo.yml in @github/local-action, with the outputs and the summary",
  { timeout: 240_000 },
  async () => {
    const doc = readFileSync(join(ROOT, 'docs/github-actions.md'), 'utf8');
    const section = doc.slice(doc.indexOf('**@github/local-action**'));
    const dotenv = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const command = /`npx local-action run \. (\S+) \.\.\/\.env`/.exec(section);
    assert.ok(command, 'the docs give the command');
    const temp = mkdtempSync(join(tmpdir(), 'enginectl-la-docs-'));
    const summary = join(temp, 'summary.md');
    writeFileSync(summary, '');
    const env = Object.fromEntries(
      dotenv
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[A-Z_-]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    // Where the reader's repository and runner directories are: this checkout (it has pipelines/demo.yml) and a temporary one.
    assert.ok(env.GITHUB_WORKSPACE && env.RUNNER_TEMP && env.GITHUB_STEP_SUMMARY, JSON.stringify(env));
    const r = await localAction('.', command[1]!, {
      ...env,
      GITHUB_WORKSPACE: ROOT,
      RUNNER_TEMP: temp,
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(r.code, 0, r.out.slice(-3000));
    assert.match(r.out, /'outcome'\s*│\s*'dry-run'/);
    assert.match(readFileSync(summary, 'utf8'), /POST \/api\/devops\/v1\/update\/vfs/);
  },
);
