// Flag parsing with node:util parseArgs; its errors become usage errors (exit 2) with a hint.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
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
}
