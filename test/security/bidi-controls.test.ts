// Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) in text from
// outside make a line read as something it is not (Trojan Source: U+202E shows what follows
// backwards). The marks (U+200E, U+200F, U+061C), which Arabic and Hebrew text carries and which
// reorder nothing, stay as they are. A pipeline's name, a step's name and an error message carrying them reach the log,
// the job summary, the HTML and the JUnit report with each control made visible as <U+XXXX>, as
// ESC is shown as ␛; the JSON report keeps the text as data.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;

// YAML double-quoted strings: \uXXXX is the character itself once read.
const PIPELINE = `version: 1
name: "Release \\u202Eexe.txt\\u202C ok"
steps:
  - name: "Gate \\u2066admin\\u2069 \\u200F\\u061C"
    uses: assert
    with: { that: "true" }
  - name: "Check \\u202Dlrm\\u202A"
    uses: assert
    continue-on-error: true
    with: { that: "false", message: "failed \\u202Ebackwards\\u202C \\u200E" }
`;

test('bidi controls in a pipeline name, step names and an error message are made visible in the log, the summary, HTML and JUnit', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-bidi-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);
  const r = await runCli([
    'run',
    at('p.yml'),
    '--emulator',
    '--summary',
    at('r.md'),
    '--html',
    at('r.html'),
    '--junit',
    at('r.xml'),
    '--report-json',
    at('r.json'),
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const outputs: [string, string][] = [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
    ['summary', readFileSync(at('r.md'), 'utf8')],
    ['HTML', readFileSync(at('r.html'), 'utf8')],
    ['JUnit', readFileSync(at('r.xml'), 'utf8')],
  ];
  for (const [channel, text] of outputs) {
    const raw = BIDI.exec(text);
    assert.equal(
      raw,
      null,
      `${channel}: a raw bidi control U+${raw?.[0].codePointAt(0)!.toString(16).toUpperCase()} near ${JSON.stringify(text.slice(Math.max(0, (raw?.index ?? 0) - 40), (raw?.index ?? 0) + 40))}`,
    );
  }
  const shown = (channel: string, text: string, names: string[]) => {
    for (const name of names) assert.ok(text.includes(name), `${channel} shows ${name}`);
  };
  shown('stdout', r.stdout, [
    'Release <U+202E>exe.txt<U+202C> ok',
    'Gate <U+2066>admin<U+2069> \u200F\u061C',
    'Check <U+202D>lrm<U+202A>',
    'failed <U+202E>backwards<U+202C> \u200E',
  ]);
  shown('summary', readFileSync(at('r.md'), 'utf8'), [
    'Release &lt;U+202E>exe.txt&lt;U+202C> ok',
    'Gate &lt;U+2066>admin&lt;U+2069>',
  ]);
  shown('HTML', readFileSync(at('r.html'), 'utf8'), [
    'Release &lt;U+202E&gt;exe.txt&lt;U+202C&gt; ok',
    'Gate &lt;U+2066&gt;admin&lt;U+2069&gt;',
  ]);
  // JUnit names a step that failed (a passing one is its id only).
  shown('JUnit', readFileSync(at('r.xml'), 'utf8'), [
    'Release &lt;U+202E&gt;exe.txt&lt;U+202C&gt; ok',
    'Check &lt;U+202D&gt;lrm&lt;U+202A&gt;',
    'failed &lt;U+202E&gt;backwards&lt;U+202C&gt;',
  ]);
  // The JSON report is data, as it is for ESC (JSON.stringify's own escape): the text as the file gave it.
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as { pipeline: { name: string } };
  assert.equal(report.pipeline.name, 'Release \u202Eexe.txt\u202C ok');
});
