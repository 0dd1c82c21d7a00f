// The JUnit report holds no control character but tab, line feed and carriage return: the C0
// ones XML 1.0 forbids, and DEL and the C1 controls (U+007F to U+009F) it allows but discourages,
// which a test view that shows a failure's message in a terminal would act on (U+009B is CSI,
// U+009D OSC, U+0090 DCS). A server's error message carrying them, through run --junit against
// the emulator.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { junitProblems } from '../helpers/schemas.ts';

const MESSAGE =
  'disk \u009B2J\u009B31mPWNED-CSI\u009B0m \u009D8;;https://evil.example\u009CPWNED-OSC\u009D8;;\u009C \u0090qPWNED-DCS\u009C \u0085next\u007F end';

test('run --junit: DEL and C1 controls in a server message are dropped from the JUnit report as the C0 ones are', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 400,
    body: JSON.stringify({ status: 400, message: MESSAGE }),
    contentType: 'application/json',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-junit-controls-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
name: Controls
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const xml = join(dir, 'r.xml');
  const r = await runCli(['run', file, '--junit', xml], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const junit = readFileSync(xml, 'utf8');
  assert.match(junit, /<failure [^>]*message="[^"]*PWNED-CSI/, "the server's message is in the report");
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u.exec(junit);
  assert.ok(
    control === null,
    `a control character U+${control?.[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} near ${JSON.stringify(junit.slice(Math.max(0, (control?.index ?? 0) - 40), (control?.index ?? 0) + 40))}`,
  );
  assert.match(junit, /disk 2J31mPWNED-CSI0m 8;;https:\/\/evil\.examplePWNED-OSC8;; qPWNED-DCS next end/);
  assert.equal(await junitProblems(xml), undefined, 'valid against junit-10.xsd');
});

// The report drops U+FFFE (XML cannot hold it) after the masker: the masker reads the text without
// it (text/decoded-view.ts), and a surrogate pair's halves it splits are each U+FFFD, never joined
// again by the drop into the character the secret holds.
test('run --junit: a secret split by U+FFFE, or its surrogate pair split by it, is masked in the JUnit report', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const PW = 'pass\u{1F600}word-99';
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 400,
    body: JSON.stringify({
      status: 400,
      message: 'split pass\u{1F600}\uFFFEword-99; halves pass\uD83D\uFFFE\uDE00word-99 end',
    }),
    contentType: 'application/json',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-junit-fffe-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
name: Noncharacters
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001], message: "\${{ secrets.PW }}" }
`,
  );
  const xml = join(dir, 'r.xml');
  const r = await runCli(['run', file, '--junit', xml], {
    env: { PW, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const junit = readFileSync(xml, 'utf8');
  assert.match(junit, /<failure [^>]*message="[^"]*halves/, "the server's message is in the report");
  const lines = junit.split('\n').filter((l) => l.includes(PW));
  assert.deepEqual(lines, [], 'lines of the JUnit report that show the secret');
  assert.equal(await junitProblems(xml), undefined, 'valid against junit-10.xsd');
});
