// Reads a `--state FILE`: JSON of the EmulatorState shape, checked before the emulator starts.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import { EmulatorState } from './state.ts';
import { jsonErrorAt } from '../text/bounded-json.ts';

export function parseState(text: string, file: string): EmulatorState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError('BAD_STATE_FILE', `${file}: not valid JSON${jsonErrorAt(error)}`, {
      hint: 'a state file is JSON; `curl http://127.0.0.1:PORT/_emulator/state` prints one to start from',
    });
  }
  const parsed = EmulatorState.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new UsageError('BAD_STATE_FILE', `${file}: not an emulator state\n${issues.join('\n')}`, {
    hint: 'docs/emulator.md describes the state file; GET /_emulator/state prints the current one',
  });
}

export async function loadStateFile(file: string): Promise<EmulatorState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      'BAD_STATE_FILE',
      `cannot read the state file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseState(text, file);
}
