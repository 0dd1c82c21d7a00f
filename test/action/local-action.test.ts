// GitHub's own local runner of JavaScript actions (@github/local-action, a devDependency) runs
// the root action and a single-step action: each entry exports run(), as the tool requires.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { localAction } from '../helpers/local-action.ts';
import { startEmulator } from '../helpers/emulator.ts';

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
