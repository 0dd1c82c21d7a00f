// The table of commands in docs/pipeline-format.md and each command's --help name the options its
// parser accepts, no more and no fewer: the parser's definitions (each command's OPTIONS) are the
// one source, and every command has a row.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../src/cli/run-command.ts';
import { runCli } from '../helpers/cli.ts';

type Options = Record<string, { short?: string }>;

/** A command's options as its parser reads them, by long name (help is the parser's own). */
async function parserOptions(command: string): Promise<Options> {
  const module = (await import(`../../src/cli/commands/${command}.ts`)) as { OPTIONS?: Options };
  assert.ok(module.OPTIONS, `src/cli/commands/${command}.ts exports the OPTIONS its parser reads`);
  return module.OPTIONS;
}

/** The long names of the flags written in `text` (--name, or -x for an option whose short is x). */
function flagsIn(text: string, options: Options): string[] {
  const long = [...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!);
  const short = [...text.matchAll(/(?<![\w-])-([a-zA-Z])\b/g)].map(
    (m) => Object.entries(options).find(([, o]) => o.short === m[1])?.[0] ?? `-${m[1]}`,
  );
  return [...new Set([...long, ...short])].sort();
}

/** The first cell of each row of the docs' table of commands, by command. */
function tableRows(): Map<string, string[]> {
  const doc = readFileSync(new URL('../../docs/pipeline-format.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Commands\n'), doc.indexOf('\n## ', doc.indexOf('\n## Commands\n') + 1));
  const rows = new Map<string, string[]>();
  for (const [, cell] of section.matchAll(/^\| `enginectl ((?:[^`\\]|\\.)*)` \|/gm)) {
    const command = cell!.split(' ')[0]!;
    rows.set(command, [...(rows.get(command) ?? []), cell!.replace(/\\\|/g, '|')]);
  }
  return rows;
}

test('every command has a row in the table of commands of docs/pipeline-format.md, and nothing else does', () => {
  assert.deepEqual([...tableRows().keys()].sort(), [...COMMAND_NAMES].sort());
});

test("the table of commands names each command's options, as its parser defines them", async () => {
  const rows = tableRows();
  const wrong: string[] = [];
  for (const command of COMMAND_NAMES) {
    const options = await parserOptions(command);
    const defined = Object.keys(options).sort();
    const written = flagsIn((rows.get(command) ?? []).join(' '), options);
    const missing = defined.filter((f) => !written.includes(f));
    const unknown = written.filter((f) => !defined.includes(f));
    if (missing.length > 0) wrong.push(`${command}: the table leaves out --${missing.join(', --')}`);
    if (unknown.length > 0)
      wrong.push(`${command}: the table names ${unknown.join(', ')}, which its parser does not define`);
  }
  assert.deepEqual(wrong, []);
});

test("each command's --help lists its options, as its parser defines them", async () => {
  const wrong: string[] = [];
  for (const command of COMMAND_NAMES) {
    const options = await parserOptions(command);
    const defined = [...Object.keys(options), 'help'].sort();
    const help = await runCli([command, '--help']);
    // An option's own line: two spaces (four for a group under another), an optional -x, and its
    // --name; what it names is before the first wide gap (`--after D --then abort|continue`: two).
    const listed = help.stdout
      .split('\n')
      .filter((line) => /^ {2}(?: {2})?(?:-[a-zA-Z], )?--[a-z]/.test(line))
      .flatMap((line) =>
        [
          ...line
            .trim()
            .split(/ {2,}/)[0]!
            .matchAll(/--([a-z][a-z-]*)/g),
        ].map((m) => m[1]!),
      );
    const missing = defined.filter((f) => !listed.includes(f));
    const unknown = [...new Set(listed)].filter((f) => !defined.includes(f));
    if (missing.length > 0) wrong.push(`${command} --help leaves out --${missing.join(', --')}`);
    if (unknown.length > 0)
      wrong.push(`${command} --help lists --${unknown.join(', --')}, which its parser does not define`);
  }
  assert.deepEqual(wrong, []);
});
