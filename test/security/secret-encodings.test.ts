// A server echoes the run's secrets in every encoding it might use (test/helpers/secrets.ts
// ENCODINGS: JSON, URL, form, base64 in four spellings and two shifts, HTML named, decimal and hex
// references, each line of a multi-line secret) in its update report, its warnings and an error
// body; and splits a secret with Markdown emphasis, a code span, a link, an escape, a character
// reference or a zero-width space, which a raw text scan cannot see but a rendered page
// reassembles. Every channel is read as its reader sees it: each file raw, the HTML report and the
// Markdown summary also as the page a browser (or GitHub) shows. One case per form and channel.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { marked } from 'marked';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { ENCODINGS, findForm, INVISIBLE, pageText, terminalText } from '../helpers/secrets.ts';

const API_USER = 'deployer';
const API_PASSWORD = 'api pass/+word';
/** A target token with the characters every encoding treats differently: space, / + = @ " ' < > & and a non-ASCII letter. */
const TOKEN = `Tok en/+=@"x'<y>&zé-9`;
const NOTE = 'release-note-secret-NT42';
const CERT = 'first-line-of-CERT-aa11\nsecond-line-of-CERT-bb22';

/** Each secret as the test names it; the API credentials travel as base64(user:password). */
const SECRETS: Record<string, string> = {
  'the target token': TOKEN,
  'the API password': API_PASSWORD,
  [`${API_USER}:password (Basic)`]: `${API_USER}:${API_PASSWORD}`,
  'a release note': NOTE,
  'line 1 of the certificate': CERT.split('\n')[0]!,
  'line 2 of the certificate': CERT.split('\n')[1]!,
};

/** The note split as Markdown or HTML would join it again on the page. */
const SPLIT = {
  'strong emphasis': 'release-**note**-secret-NT42',
  emphasis: 'release-*note*-secret-NT42',
  'underscore emphasis': 'release-_note_-secret-NT42',
  strikethrough: 'release-~~note~~-secret-NT42',
  'code span': 'release-`note`-secret-NT42',
  link: '[release-note](https://example.com)-secret-NT42',
  'backslash escape': 'release\\-note-secret-NT42',
  'decimal reference': 'release&#45;note-secret-NT42',
  'hex reference': 'release-note-secr&#x65;t-NT42',
  'zero-width space': 'release-note-\u200Bsecret-NT42',
  // Invisible characters as HTML references (a page shows none of them), and NUL and bidi
  // controls as written (a terminal printing the JSON report or the journal shows none).
  ...Object.fromEntries(
    [
      '&shy;',
      '&#173;',
      '&#xAD;',
      '&#8203;',
      '&#x200B;',
      '&ZeroWidthSpace;',
      '&zwj;',
      '&zwnj;',
      '&#x2060;',
      '&NoBreak;',
      '&#xFEFF;',
      '&#8204;',
      '&InvisibleTimes;',
      '&#x034F;',
      '&#x180E;',
      '&lrm;',
      '&#x200E;',
      '&#x3164;',
    ].map((ref) => [`reference ${ref.slice(1)}`, `release-note${ref}-secret-NT42`]),
  ),
  NUL: 'release-note-\u0000secret-NT42',
  'bidi override': 'release-\u202Dnote-secret-NT42',
  'bidi isolate': 'release-note-s\u2066ecret-NT42',
  // Whole terminal escape sequences, which a terminal printing the JSON report or the journal
  // (`jq -r`), or a later step's output, shows as nothing.
  'CSI (SGR reset)': 'release-note-\x1b[0msecret-NT42',
  'CSI with parameters (colour)': 'release-\x1b[1;31mnote-secret-NT42',
  '8-bit CSI': 'release-note-\u009b0msecret-NT42',
  'OSC 8 hyperlink, ended by ST': 'release-\x1b]8;;https://example.com\x1b\\note\x1b]8;;\x1b\\-secret-NT42',
  'OSC title, ended by BEL': 'release-note\x1b]0;title\x07-secret-NT42',
  'ESC ( B (character set)': 'release-\x1b(Bnote-secret-NT42',
  // What the JUnit report drops (XML cannot hold it, or a test view would act on it): a DEL, and
  // the noncharacters U+FFFE and U+FFFF.
  DEL: 'release-note-secret\u007F-NT42',
  'noncharacter U+FFFE': 'release-note\uFFFE-secret-NT42',
  'noncharacter U+FFFF': 'release-\uFFFFnote-secret-NT42',
};

/** The splits the JUnit report drops, which it shows only in a failure's message: first in the server's error body, within what a message keeps of it. */
const DROPPED_BY_JUNIT = ['NUL', 'DEL', 'noncharacter U+FFFE', 'noncharacter U+FFFF'] as const;

function echoed(): string[] {
  const lines: string[] = [];
  for (const [label, secret] of Object.entries(SECRETS))
    for (const [name, encode] of Object.entries(ENCODINGS)) lines.push(`${name} of ${label}: ${encode(secret)}`);
  for (const [name, text] of Object.entries(SPLIT)) lines.push(`split by ${name}: ${text}`);
  return lines;
}

function hostile(emulator: Emulator): void {
  emulator.users.push({ name: API_USER, password: API_PASSWORD, scopes: new Set(ALL_SCOPES) });
  emulator.state.databases.find((d) => d.name === 'PROD')!.tokens.push(TOKEN);
  const handle = emulator.handle.bind(emulator);
  emulator.handle = (req) => {
    const answer = handle(req);
    if (!req.path.startsWith('/api/devops/v1/update/')) return answer;
    const lines = echoed();
    if (req.path.endsWith('/system')) {
      const first = DROPPED_BY_JUNIT.map((name) => `split by ${name}: ${SPLIT[name]}`).join('; ');
      return {
        ...answer,
        status: 500,
        contentType: 'text/plain',
        body: `update refused: ${first}\n${lines.join('\n')}`,
      };
    }
    const result = JSON.parse(answer.body!) as Record<string, unknown>;
    const report = `${String(result.report)}\n\n## Echo\n\n${lines.map((l) => `- ${l}`).join('\n')}\n\n| echo |\n|---|\n${lines.map((l) => `| ${l} |`).join('\n')}\n`;
    return { ...answer, body: JSON.stringify({ ...result, report, summary: lines.join('; '), warnings: lines }) };
  };
}

const PIPELINE = `version: 1
name: Encodings
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001], message: "\${{ secrets.NOTE }} \${{ secrets.CERT }}" }
  - id: system
    uses: update/system
    continue-on-error: true
    with: { target: prod, message: "\${{ secrets.NOTE }}" }
`;

test('a secret echoed in any encoding, or split to reassemble on the page, reaches no channel', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-encodings-'));
  const file = join(dir, 'encodings.yml');
  writeFileSync(file, PIPELINE);
  const env = {
    PROD_TOKEN: TOKEN,
    NOTE,
    CERT,
    ENGINE_URL: url,
    ENGINE_USERNAME: API_USER,
    ENGINE_PASSWORD: API_PASSWORD,
  };
  const out = (name: string) => join(dir, name);
  const r = await runCli(
    [
      'run',
      file,
      '--ci',
      'gitlab',
      '--journal',
      out('journal'),
      '--dotenv',
      out('out.env'),
      '--report-json',
      out('r.json'),
      '--junit',
      out('r.xml'),
      '--summary',
      out('r.md'),
      '--html',
      out('r.html'),
    ],
    { env },
  );
  // Its update (continue-on-error) is left in doubt by the server's 500: exit 1, the run gone on.
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = readFileSync(out('r.json'), 'utf8');
  assert.match(report, /base64 URL-safe of the target token: \*\*\*/, 'the server did echo every form');

  const channels: Record<string, string> = { 'the terminal': r.stdout + r.stderr };
  for (const name of readdirSync(dir).filter((f) => f !== 'encodings.yml'))
    channels[name] = readFileSync(out(name), 'utf8');
  assert.deepEqual(Object.keys(channels).sort(), [
    'journal',
    'out.env',
    'r.html',
    'r.json',
    'r.md',
    'r.xml',
    'the terminal',
  ]);
  const pages = {
    'r.html as a browser shows it': pageText(channels['r.html']!),
    'r.md as GitHub renders it': pageText(marked.parse(channels['r.md']!, { gfm: true, async: false })),
  };
  const visible = (text: string) => text.replace(INVISIBLE, '');

  for (const [channel, text] of Object.entries(channels)) {
    await t.test(channel, () => {
      const found: string[] = [];
      for (const [label, secret] of Object.entries(SECRETS)) {
        for (const [name, encode] of Object.entries(ENCODINGS)) {
          const { at, in: seen } = findForm(text, encode(secret));
          if (at !== -1)
            found.push(
              `${name} of ${label}: ${JSON.stringify(seen.slice(Math.max(0, at - 20), at + encode(secret).length + 10))}`,
            );
        }
      }
      assert.deepEqual(found, [], `forms of secrets in ${channel}`);
    });
  }
  // A terminal printing any channel (the JSON report and the journal with `jq -r`) shows neither an
  // invisible character, a NUL nor an escape sequence, however JSON escapes it.
  for (const channel of Object.keys(channels)) {
    await t.test(`${channel} as a terminal shows it`, () => {
      const shown = terminalText(channels[channel]!)
        .split('\n')
        .flatMap((l) => (l.includes(NOTE) ? [l.slice(Math.max(0, l.indexOf(NOTE) - 60), l.indexOf(NOTE) + 30)] : []));
      assert.deepEqual(shown, [], `lines of ${channel} that show the note`);
    });
  }
  for (const [page, text] of Object.entries(pages)) {
    await t.test(page, () => {
      const shown = Object.entries(SECRETS)
        .filter(([, secret]) => visible(text).includes(secret))
        .map(([label]) => label);
      assert.deepEqual(shown, [], `secrets shown on ${page}`);
      const lines = Object.keys(SPLIT).map(
        (name) =>
          [
            name,
            visible(text)
              .split('\n')
              .find((l) => l.includes(`split by ${name}:`)),
          ] as const,
      );
      assert.deepEqual(
        lines.filter(([, line]) => line === undefined),
        [],
        `every split line is on ${page}`,
      );
      assert.deepEqual(
        lines.filter(([, line]) => line!.includes(NOTE)),
        [],
        `split lines that reassemble the note on ${page}`,
      );
    });
  }
});
