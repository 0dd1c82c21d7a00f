// A Deployment status's description is cut to GitHub's 140 characters: cut by UTF-16 units, a
// character outside the BMP (an emoji in the pipeline's name) straddling the cut left half a
// surrogate pair in the status GitHub was sent. It is cut before such a character instead.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { startGitHubApi } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

test("a Deployment status's description cut to 140 characters never splits an emoji of the pipeline's name", async (t) => {
  const github = await startGitHubApi(t);
  const { url } = await startEmulator(t);
  // "running " and 131 characters: the rocket's two UTF-16 units are the 140th and 141st.
  const name = `${'x'.repeat(131)}🚀 release`;
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': `version: 1\nname: "${name}"\nsteps:\n  - uses: transaction-log/clear\n` },
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
    },
    githubApi: github.url,
  });
  assert.equal(run.code, 0, run.failed.join('\n'));
  const statuses = github.calls.filter((c) => c.body.state !== undefined);
  assert.ok(statuses.length >= 2, JSON.stringify(github.calls));
  for (const { body } of statuses) {
    const description = String(body.description);
    assert.ok(description.length <= 140, description);
    assert.doesNotMatch(description, LONE_SURROGATE, `half an emoji: ${JSON.stringify(description)}`);
  }
  assert.equal(String(statuses[0]!.body.description), `running ${'x'.repeat(131)}`);
});
