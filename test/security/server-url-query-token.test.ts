// A server URL's query token (ENGINE_URL=https://host/?access_token=T, or a servers: url written
// so) is a credential inside the URL. The client never sends it (api/called-at.ts: origin and
// path), and no message of a call shows it, but the journal's run record keeps the URL as written
// (`servers`, masked by a masker that never learnt the query), and a resume whose URL changed warns
// with both URLs, the old and the new token, in the log and as a GitHub ::warning annotation.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Query token
steps:
  - id: eng
    uses: monitoring/engines
  - id: missing
    uses: api/request
    with: { method: GET, path: /api/monitoring/v1/nothing }
`;

test('a query token of a server URL reaches neither the journal nor a resume warning', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-query-token-'));
  const file = join(dir, 'p.yml');
  const journal = join(dir, 'j.jsonl');
  writeFileSync(file, PIPELINE);
  const env = (token: string) => ({
    ENGINE_URL: `${url}/?access_token=${token}`,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
  });
  const first = await runCli(['run', file, '--journal', journal], { env: env('QtOldTokenZz91') });
  assert.equal(first.code, 1, first.output);
  const written = readFileSync(journal, 'utf8');
  assert.ok(
    !written.includes('QtOldTokenZz91'),
    `the journal keeps the query token: ${/"servers":\{[^}]*\}/.exec(written)?.[0]}`,
  );

  const again = await runCli(['run', file, '--resume', journal, '--ci', 'github'], { env: env('QtNewTokenZz92') });
  for (const token of ['QtOldTokenZz91', 'QtNewTokenZz92'])
    assert.ok(
      !again.output.split('\n').some((l) => !l.startsWith('::add-mask::') && l.includes(token)),
      `the resume's log shows ${token}:\n${again.output
        .split('\n')
        .filter((l) => l.includes(token))
        .join('\n')}`,
    );
});
