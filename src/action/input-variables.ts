// The runner's INPUT_ variables that name no input of the action being run: a name mistyped in the
// step's with: (dry_run:, dryrun:), of which GitHub only warns ("Unexpected input(s)"), and which
// no input reads. Ignored, `dry_run: true` ran for real; refused before anything is sent.
import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';
import type { Env } from '../runner/scope.ts';
import type { ActionDef } from './definitions.ts';
import { actionDir } from './definitions.ts';

const PREFIX = 'INPUT_';

/** The variable GitHub passes an input in, as @actions/core reads it: INPUT_ and the name in upper case, spaces as _ (hyphens kept). */
export const inputVariable = (name: string): string => `${PREFIX}${name.replace(/ /g, '_').toUpperCase()}`;

/** Refuses (BAD_INPUT) the first INPUT_ variable of `env` that is none of `def`'s inputs, naming it and the nearest input; never its value. */
export function checkInputVariables(def: ActionDef, env: Env): void {
  const names = Object.keys(def.inputs);
  const known = new Set(names.map(inputVariable));
  const stray = Object.keys(env)
    .filter((variable) => variable.startsWith(PREFIX) && !known.has(variable.toUpperCase()))
    .sort()[0];
  if (stray === undefined) return;
  const written = stray.slice(PREFIX.length).toLowerCase();
  const guess = didYouMean(written, names) ?? didYouMean(written.replace(/[_ ]/g, '-'), names);
  const dir = actionDir(def);
  const action = dir === '.' ? 'enginectl/enginectl' : `enginectl/enginectl/${dir}`;
  throw new UsageError(
    'BAD_INPUT',
    `${stray} names no input of ${action} (a name in the step's with: it does not read, of which GitHub only warns)${guess ? `: did you mean ${guess}?` : ''}`,
    {
      hint: guess
        ? `write ${guess}: in the step's with: (GitHub passes it as ${inputVariable(guess)}); nothing was sent`
        : `its inputs are ${names.join(', ')} (docs/actions.md); nothing was sent`,
    },
  );
}
