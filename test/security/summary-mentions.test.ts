// Server text in the summary and the PR comment pings no one and links no issue, however it spells
// the sign: GitHub finds a mention (`@user`, `@org/team`) or an issue reference (`#12`, `GH-12`) in
// each text node of the rendered page, after HTML references are decoded (`&#x40;` is `@` there)
// and after emphasis split the text (`_@user_` is a node starting with `@`), and a lone backtick
// is only a backtick. Through the CLI's run (--summary) and the root action's PR comment.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { characterEntities } from 'character-entities';
import { Marked } from 'marked';
import { actionDef } from '../../src/action/definitions.ts';
import { startGitHubApi } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

/** Each spelling of a mention and an issue reference a server may send, with the login or number it would reach. */
const SPELLINGS = [
  ['`@jdoe-tick', 'jdoe-tick'],
  ['&#x40;jdoe-hex', 'jdoe-hex'],
  ['&#X0040;jdoe-hex0', 'jdoe-hex0'],
  ['&#64;jdoe-dec', 'jdoe-dec'],
  ['&commat;jdoe-named', 'jdoe-named'],
  ['_@jdoe-em_', 'jdoe-em'],
  ['&#x23;41', '41'],
  ['&num;42', '42'],
  ['GH-43', '43'],
] as const;
const HOSTILE = SPELLINGS.map(([text]) => text).join(' and ');

/** A reference entity's text, as the page's HTML parser reads it. */
function decoded(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);/g, (all, ref: string) => {
    if (ref[0] !== '#') return characterEntities[ref] ?? all;
    return String.fromCodePoint(
      ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
    );
  });
}

/** What GitHub links in the page's text nodes (code left out): mentions and issue references, as its filters find them. */
function liveReferences(markdown: string): string[] {
  const page = new Marked({ gfm: true, async: false }).parse(markdown) as string;
  const text = page.replace(/<pre>[^]*?<\/pre>|<code>[^]*?<\/code>/g, ' ');
  const found: string[] = [];
  for (const node of text.split(/<[^>]*>/).map(decoded)) {
    for (const m of node.matchAll(/(?:^|[^A-Za-z0-9_])@([A-Za-z0-9][A-Za-z0-9-]*)/g)) found.push(`@${m[1]}`);
    for (const m of node.matchAll(/(?:^|[^A-Za-z0-9_&])#(\d+)\b/g)) found.push(`#${m[1]}`);
    for (const m of node.matchAll(/\bGH-(\d+)\b/g)) found.push(`GH-${m[1]}`);
  }
  return found;
}

const PIPELINE = (url: string) => `version: 1
name: Mentions
servers:
  main: { url: "${url}", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
`;

/** The emulator answers the vfs update with the hostile text in its report and in a warning (a table of the summary). */
async function answering(t: TestContext): Promise<string> {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    times: 1,
    contentType: 'application/json',
    body: JSON.stringify({
      success: true,
      report: `# VFS update\n\nInstalled; ask ${HOSTILE}.\n\n| file | by |\n|---|---|\n| 1001 | ${HOSTILE} |\n`,
      warnings: [{ code: 'W1', message: `ask ${HOSTILE}` }],
    }),
  });
  return url;
}

function assertNoLiveReference(what: string, markdown: string): void {
  assert.match(markdown, /jdoe-named/, `${what}: the server's text is shown`);
  assert.deepEqual(liveReferences(markdown), [], `${what}: a mention or an issue reference GitHub would link`);
}

test('the summary pings no one and links no issue whatever spelling the server text uses', async (t) => {
  const url = await answering(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-mentions-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE(url));
  const r = await runCli(['run', join(dir, 'p.yml'), '--summary', join(dir, 's.md')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assertNoLiveReference('summary', readFileSync(join(dir, 's.md'), 'utf8'));
});

test('the PR comment pings no one and links no issue whatever spelling the server text uses', async (t) => {
  const url = await answering(t);
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': PIPELINE(url) },
    inputs: { pipeline: 'p.yml', 'pr-comment': 'true' },
    event: { pull_request: { number: 7 } },
    githubApi: github.url,
  });
  assert.equal(run.code, 0, run.failed.join('\n'));
  assert.equal(github.comments.length, 1);
  assertNoLiveReference('PR comment', github.comments[0]!.body);
});

test('an e-mail address and a plain number stay as they are', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    times: 1,
    contentType: 'application/json',
    body: JSON.stringify({ success: true, report: 'mail ops@example.com or first_last@example.com; 3 files' }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-mentions-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE(url));
  const r = await runCli(['run', join(dir, 'p.yml'), '--summary', join(dir, 's.md')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(readFileSync(join(dir, 's.md'), 'utf8'), /mail ops@example\.com or first_last@example\.com; 3 files/);
});
