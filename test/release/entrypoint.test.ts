// The image's entrypoint hands enginectl's own commands to enginectl and any other program (a CI
// executor's shell, Jenkins' `cat`) to that program: its list of commands is the CLI's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../src/cli/run-command.ts';
import { ROOT } from '../helpers/action.ts';

test("the entrypoint's list of enginectl commands is the CLI's", () => {
  const script = readFileSync(join(ROOT, 'release/entrypoint.sh'), 'utf8');
  const listed = /^\s*'' \| -\* \| (.+)\)$/m.exec(script)![1]!.split(' | ');
  assert.deepEqual([...listed].sort(), [...COMMAND_NAMES, 'help'].sort());
});
