// A literal token that holds a lone surrogate (a file cut mid-character, or made by a tool that
// writes UTF-16 halves), in a file whose YAML is broken: validate says where, its findings' quoted
// lines masked of the literal credentials the file holds. The masker told a CI system's log
// masking its URL-encoded spelling, which JavaScript cannot make of a lone surrogate (URIError):
// validate ended "internal error: URI malformed", exit 1.
// Found by `npm run fuzz` (validate: the committed pipelines, mutated, are accepted or located).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCommand } from '../../src/cli/run-command.ts';
import type { CliIO } from '../../src/cli/io.ts';

const FILE = '/p/pipeline.yml';

test('validate of a broken file with a literal token holding a lone surrogate says where, never an internal error', async () => {
  const text = `version: 1\nname: p\ntargets:\n  staging:\n    server: staging-db.example.com\n    database: STAGING\n    token: abc\udc00def-literal\nsteps:\n  - name: Alerts\n&a     uses: monitoring/alerts\n`;
  let out = '';
  const io = {
    stdout: (s: string) => void (out += s),
    stderr: (s: string) => void (out += s),
    stdoutIsTTY: false,
    env: {},
    cwd: '/nonexistent',
    signal: new AbortController().signal,
    readFile: async () => text,
    readStdin: async () => '',
  } as unknown as CliIO;
  const code = await runCommand(['validate', FILE], io);
  assert.doesNotMatch(out, /internal error/, out);
  assert.equal(code, 2, out);
  assert.match(out, /^\/p\/pipeline\.yml:\d+:\d+ /, out);
});
