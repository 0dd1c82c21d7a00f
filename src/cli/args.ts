// Flag parsing with node:util parseArgs; its errors become usage errors (exit 2) with a hint.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /Unknown option '--?([^']+)'/.exec(message)?.[1];
    const guess = unknown ? didYouMean(unknown, [...Object.keys(options), 'help']) : undefined;
    throw new UsageError('BAD_ARGUMENTS', `${command}: ${message}`, {
      hint: guess
        ? `did you mean --${guess}? (enginectl ${command} --help lists the options)`
        : `see enginectl ${command} --help`,
    });
  }
  // An option of one value given twice: the last silently won (a journal or a report written where the operator did not look).
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple || token.name === 'help') continue;
    if (seen.has(token.name))
      throw new UsageError('BAD_ARGUMENTS', `${command}: --${token.name} is given more than once`, {
        hint: `give --${token.name} once (enginectl ${command} --help lists the options that take several)`,
      });
    seen.add(token.name);
  }
  const { tokens: _tokens, ...rest } = parsed;
  return rest;
}
