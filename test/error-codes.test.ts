// One table of error codes (src/error-codes.ts): every code thrown or reported in src/ is in it,
// docs/error-codes.md shows it as it is (UPDATE_GOLDEN=1 npm test rewrites the page), and every
// flag its hints name is one the CLI accepts.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ERROR_CODES, type ErrorCodeDoc } from '../src/error-codes.ts';
import { COMMAND_NAMES } from '../src/cli/run-command.ts';
import { runCli } from './helpers/cli.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !path.endsWith('error-codes.ts') ? [path] : [];
  });
}

/**
 * The codes src/ gives. In the emulator only its usage errors count: the rest of its codes are the
 * server's answers and its sample data (an extension's `code: 'AREP'`), not enginectl's.
 */
function codesInSource(): Set<string> {
  const found = new Set<string>();
  const everywhere = [/UsageError\(\s*'([A-Z_]+)'/g];
  const outside = [
    /new ApiError\(\s*'([A-Z_]+)'/g,
    /new StoreError\(\s*'([A-Z_]+)'/g,
    /new LeaseError\(\s*'([A-Z_]+)'/g,
    /make\(\s*'([A-Z_]+)'/g,
    /readonly code = '([A-Z_]+)'/g,
    /\bcode: '([A-Z_]+)'/g,
    /\|\s*'(API_[A-Z_]+)'/g,
  ];
  for (const file of files('src')) {
    const text = readFileSync(file, 'utf8');
    for (const p of file.includes('/emulator/') ? everywhere : [...everywhere, ...outside])
      for (const m of text.matchAll(p)) found.add(m[1]!);
  }
  return found;
}

const PAGE = 'docs/error-codes.md';

/** A code's exit, and a sharded run's worker's where it differs ("1; a shard's worker: 69"). */
const exitOf = (d: ErrorCodeDoc) => (d.worker === undefined ? `${d.exit}` : `${d.exit}; a shard's worker: ${d.worker}`);

function page(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, d]) => `| \`${code}\` | ${exitOf(d)} | ${d.action} |`);
  return `# Error codes

Every error enginectl gives has a stable code: in the terminal (the \`code:\` line under a
command's \`enginectl: ...\` message, under each file's problems that \`enginectl validate\` lists, or under a
failed step's \`error:\` line), in the JSON report (\`steps[].error.code\`), as the JUnit failure's \`type\`. Exit
code 2 means invalid input (nothing was sent); 1 means a step failed (its call, its result, or
the run was interrupted: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP); 3 is no error but the drift audit's
verdict that a site could not be read and none drifted (\`plan --live --expect\`); 75 is no error
either: the run parked, saved in the run store to go on later (\`run --continue\`); 69 is a sharded
run's worker (\`run --shard\`) that stopped on its run store or its lease, to run again (the
exit column says "a shard's worker: 69" on each code whose exit it changes for a worker). The table is
\`src/error-codes.ts\`; a test keeps it and this page complete.

| code | exit | what to do |
|---|---|---|
${rows.join('\n')}
`;
}

test('every error code src/ gives is in the table of error codes, and nothing else is', () => {
  const used = codesInSource();
  const missing = [...used].filter((c) => !Object.hasOwn(ERROR_CODES, c));
  assert.deepEqual(missing, [], 'codes given but not in src/error-codes.ts');
  const unused = Object.keys(ERROR_CODES).filter((c) => !used.has(c));
  assert.deepEqual(unused, [], 'codes in the table that nothing gives');
});

test('docs/error-codes.md is the table', () => {
  if (process.env.UPDATE_GOLDEN) writeFileSync(PAGE, page());
  assert.equal(readFileSync(PAGE, 'utf8'), page(), 'UPDATE_GOLDEN=1 npm test rewrites docs/error-codes.md');
});

/** Whether `enginectl COMMAND` accepts FLAG: its parser does not call it an unknown option (--help first, so nothing runs). */
async function accepts(command: string, flag: string): Promise<boolean> {
  const r = await runCli([command, '--help', flag]);
  return !/Unknown option/.test(r.stderr);
}

test('every flag a hint of the table names is an option of the CLI, of the command the hint names with it', async () => {
  const commands = new RegExp(`\\b(${COMMAND_NAMES.join('|')})((?: (?:--[a-z][a-z-]*|[A-Z]+))+)`, 'g');
  const wrong: string[] = [];
  for (const [code, { action }] of Object.entries(ERROR_CODES)) {
    for (const flag of new Set(action.match(/--[a-z][a-z-]*/g) ?? [])) {
      const by = await Promise.all(COMMAND_NAMES.map(async (c) => [c, await accepts(c, flag)] as const));
      if (!by.some(([, ok]) => ok)) wrong.push(`${code}: ${flag} is an option of no command`);
    }
    for (const [, command, flags] of action.matchAll(commands)) {
      for (const flag of flags!.match(/--[a-z][a-z-]*/g) ?? [])
        if (!(await accepts(command!, flag))) wrong.push(`${code}: enginectl ${command} has no ${flag}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test("the terminal says each error's code, as this page promises: a command's under its message, a failed step's under its error line", async (t) => {
  const unknown = await runCli(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^enginectl: unknown command "frobnicate"\n {2}hint: .*\n {2}code: UNKNOWN_COMMAND\n$/);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-codes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'fails.yml'),
    `version: 1
steps:
  - uses: assert
    with: { that: "false", message: deliberate failure }
`,
  );
  const failed = await runCli(['run', join(dir, 'fails.yml'), '--emulator']);
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /^ {4}error: deliberate failure\n(?: {4}hint: .*\n)? {4}code: STEP_FAILED\n/m);
});
