// The files a command writes are its own. Two outputs on one path leave only the last written; an
// output on a file the command reads replaces it: `run release.yml --summary release.yml` left the
// summary where the pipeline was, and `--report-json` on the journal's path left the JSON report
// where the run's record of what it sent had been (resume and report then refused it). Each is
// refused before anything runs, exit 2, the file left as it was.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sampleState } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

/** The demo's target tokens, which --state (no sample state) leaves to the environment. */
const TOKENS = { PROD_TOKEN: 'prod-token', STAGING_TOKEN: 'staging-token' };
const PIPELINES = fileURLToPath(new URL('../../pipelines/', import.meta.url));

/** A directory holding a copy of pipelines/ (the demo, the fleet rollout and its inventory). */
function workspace(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-own-files-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(PIPELINES, dir, { recursive: true });
  return dir;
}

async function refused(args: string[], message: RegExp, hint: RegExp, env?: Record<string, string>): Promise<void> {
  const r = await runCli(args, { env });
  assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
  const [first, second] = r.stderr.split('\n');
  assert.match(first!, message, args.join(' '));
  assert.match(second!, hint, args.join(' '));
  assert.doesNotMatch(r.stdout, /running "|report: /, 'nothing ran, nothing was written');
}

test('an output on the pipeline file, or on a file it includes, is refused and the file is left as it was', async (t) => {
  const dir = workspace(t);
  const demo = join(dir, 'demo.yml');
  const text = readFileSync(demo, 'utf8');
  await refused(
    ['run', demo, '--emulator', '--summary', demo],
    /^enginectl: --summary .*demo\.yml is the pipeline file: writing there would replace it$/,
    /^ {2}hint: give --summary another path; nothing was run$/,
  );
  assert.equal(readFileSync(demo, 'utf8'), text, 'the pipeline is intact');
  const sites = join(dir, 'inventory', 'sites.yml');
  const inventory = readFileSync(sites, 'utf8');
  await refused(
    ['run', join(dir, 'fleet-rollout.yml'), '--emulator', '--dotenv', sites],
    /^enginectl: --dotenv .*sites\.yml is a file the pipeline includes \(inventory\/sites\.yml\): writing there would replace it$/,
    /give --dotenv another path/,
  );
  assert.equal(readFileSync(sites, 'utf8'), inventory);
  // Through a symbolic link to the pipeline, and through a path that only spells it differently.
  symlinkSync(demo, join(dir, 'link.yml'));
  await refused(
    ['run', demo, '--emulator', '--html', join(dir, 'link.yml')],
    /^enginectl: --html .*link\.yml is the pipeline file/,
    /give --html another path/,
  );
  await refused(
    ['run', demo, '--emulator', '--junit', join(dir, 'inventory', '..', 'demo.yml')],
    /^enginectl: --junit .* is the pipeline file/,
    /give --junit another path/,
  );
  await refused(
    ['plan', demo, '--emulator', '--live', '--out', demo],
    /^enginectl: --out .*demo\.yml is the pipeline file/,
    /give --out another path/,
  );
  assert.equal(readFileSync(demo, 'utf8'), text);
});

test('a report on the journal is refused before the journal is opened, for a run, a resume and report', async (t) => {
  const dir = workspace(t);
  const demo = join(dir, 'demo.yml');
  const journal = join(dir, 'run.journal.jsonl');
  await refused(
    ['run', demo, '--emulator', '--journal', journal, '--report-json', journal],
    /^enginectl: --report-json .*run\.journal\.jsonl is the journal \(--journal\): writing there would replace it$/,
    /give --report-json another path/,
  );
  assert.equal(existsSync(journal), false, 'no journal was opened, no run started');
  const ok = await runCli(['run', demo, '--emulator', '--journal', journal]);
  assert.equal(ok.code, 0, ok.stderr);
  const record = readFileSync(journal, 'utf8');
  await refused(
    ['run', demo, '--emulator', '--resume', journal, '--summary', journal],
    /^enginectl: --summary .* is the journal \(--resume\)/,
    /give --summary another path/,
  );
  await refused(
    ['report', journal, '--html', journal],
    /^enginectl: --html .* is the journal \(JOURNAL\)/,
    /give --html another path/,
  );
  assert.equal(readFileSync(journal, 'utf8'), record, 'the journal is as the run left it');
  const merged = await runCli(['report', '--merge', journal, '--report-json', join(dir, 'fleet.json')]);
  assert.equal(merged.code, 0, merged.stderr);
  await refused(
    ['report', '--merge', journal, join(dir, 'fleet.json'), '--report-json', join(dir, 'fleet.json')],
    /^enginectl: --report-json .*fleet\.json is a report to merge: writing there would replace it$/,
    /give --report-json another path/,
  );
});

test('two outputs on one file are refused, and so is an output on an emulator state', async (t) => {
  const dir = workspace(t);
  const demo = join(dir, 'demo.yml');
  const out = join(dir, 'out.md');
  await refused(
    ['run', demo, '--emulator', '--summary', out, '--html', out],
    /^enginectl: --summary and --html name the same file \(.*out\.md\): each output needs a file of its own$/,
    /give --html another path/,
  );
  await refused(
    ['run', demo, '--emulator', '--report-json', out, '--dotenv', join(dir, '.', 'out.md')],
    /^enginectl: --report-json and --dotenv name the same file/,
    /give --dotenv another path/,
  );
  await refused(
    ['plan', demo, '--emulator', '--live', '--summary', out, '--out', out],
    /^enginectl: --out and --summary name the same file|^enginectl: --summary and --out name the same file/,
    /another path/,
  );
  const state = join(dir, 'state.json');
  writeFileSync(state, JSON.stringify(sampleState(Date.now())));
  const saved = readFileSync(state, 'utf8');
  await refused(
    ['run', demo, '--emulator', '--state', state, '--report-json', state],
    /^enginectl: --report-json .*state\.json is an emulator state \(--state\): writing there would replace it$/,
    /give --report-json another path/,
    TOKENS,
  );
  await refused(
    ['run', demo, '--emulator', '--state', `prod=${state}`, '--summary', state],
    /^enginectl: --summary .*state\.json is an emulator state \(--state\)/,
    /give --summary another path/,
    TOKENS,
  );
  assert.equal(readFileSync(state, 'utf8'), saved);
  assert.equal(existsSync(out), false);
});

test('an output whose path is the directory of another file the command writes or reads is refused before anything runs, and no directory is made', async (t) => {
  const dir = workspace(t);
  const demo = join(dir, 'demo.yml');
  const x = join(dir, 'out', 'x');
  await refused(
    ['run', demo, '--emulator', '--junit', x, '--html', join(x, 'r.html')],
    /^enginectl: --junit .*out\/x is the directory of --html .*out\/x\/r\.html: each output needs a file of its own$/,
    /give --junit another path/,
  );
  assert.ok(!existsSync(x), 'no directory was made in the place of --junit');
  await refused(
    ['run', demo, '--emulator', '--html', join(x, 'r.html'), '--summary', x],
    /^enginectl: --summary .*out\/x is the directory of --html .*out\/x\/r\.html/,
    /give --summary another path/,
  );
  await refused(
    ['report', '--merge', join(x, 'a.json'), '--report-json', x],
    /^enginectl: --report-json .*out\/x is the directory of a report to merge .*out\/x\/a\.json/,
    /give --report-json another path/,
  );
});
