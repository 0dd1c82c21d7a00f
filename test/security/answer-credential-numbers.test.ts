// A credential an answer gave as a number (a numeric password, a one-time passcode: learnt by the
// run's masker, runner/answer-secrets.ts) that a later step passes on as a typed number, a whole
// `${{ }}` resolving to the number itself: in a write's fields, in an api/request body. The server
// is sent the number; no record of the run shows it: the step's inputs and its call in the journal,
// the reports (JSON, JUnit, HTML, the summary, and those `enginectl report` makes from the
// journal), the dotenv file and the CI's outputs, the log.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

const PASSWORD = 73915508;
const PASSCODE = 482913;
const SECRETS = [String(PASSWORD), String(PASSCODE)];

const PIPELINE = `version: 1
name: Numeric credentials
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - id: copy
    name: Copy the credentials
    uses: classes/update
    with:
      class: 12
      id: 2002
      fields:
        ipassword: "\${{ steps.get.outputs.entity.ipassword }}"
        ibegin: { passcode: "\${{ steps.get.outputs.entity.ibegin.passcode }}" }
  - id: raw
    uses: api/request
    with:
      method: PATCH
      path: /api/classes/v1/classes/12/entities/2002
      body: [{ ihomeprocess: "\${{ steps.get.outputs.entity.ibegin.passcode }}" }]
`;

/** What a CI log shows: the runner reads the lines that register a secret, and shows none of them. */
const shown = (text: string) => text.replace(/^::add-mask::.*$/gm, '');

/** What assertClean says of `text` (which form of either credential it holds, and where), or nothing. */
function leak(channel: string, text: string): string[] {
  try {
    assertClean(channel, text, SECRETS);
    return [];
  } catch (error) {
    return [(error as Error).message.split('\n')[0]!];
  }
}

test('a credential an answer gave as a number, passed on typed to a later write, is sent as it is, and no record shows it: the journal, every report, the log', async (t) => {
  const { url, emulator } = await startEmulator(t);
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2001)!,
    {
      ipassword: PASSWORD,
      ibegin: { passcode: PASSCODE },
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-numbers-'));
  const file = join(dir, 'numbers.yml');
  writeFileSync(file, PIPELINE);
  const summary = join(dir, 'gh-summary.md');
  writeFileSync(summary, '');
  writeFileSync(join(dir, 'github-output'), '');
  const reports = (prefix: string) => [
    '--report-json',
    join(dir, `${prefix}.json`),
    '--junit',
    join(dir, `${prefix}.xml`),
    '--html',
    join(dir, `${prefix}.html`),
    '--summary',
    join(dir, `${prefix}.md`),
  ];
  const journal = join(dir, 'run.journal.jsonl');
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: join(dir, 'github-output'),
  };
  const run = await runCli(['run', file, '--journal', journal, '--dotenv', join(dir, 'out.env'), ...reports('run')], {
    env,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The server was sent the numbers as numbers.
  const written = emulator.state.entities.find((e) => e.ikey === 2002)!;
  assert.equal(written.ipassword, PASSWORD);
  assert.deepEqual(written.ibegin, { passcode: PASSCODE });
  assert.equal(written.ihomeprocess, PASSCODE);

  const again = await runCli(['report', journal, ...reports('again')], { env });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const channels: [string, string][] = [
    ['run stdout', shown(run.stdout)],
    ['run stderr', run.stderr],
    ['report stdout', again.stdout + again.stderr],
    ...readdirSync(dir)
      .filter((name) => name !== 'numbers.yml')
      .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')]),
  ];
  assert.ok(channels.length >= 15, channels.map(([name]) => name).join(', '));
  assert.deepEqual(
    channels.flatMap(([channel, text]) => leak(channel, text)),
    [],
    'no channel shows a credential',
  );
});
