// A stored run's record a reader passes over rather than refuses (the history of a run with
// windows, a lease release's masking, a worker's report of a site in doubt), as its warning says
// it: the refusal's message and hint, the hint where the record is and what to do (storedWays),
// without the "nothing was run" of a refusal: the command that warns goes on.
import { EnginectlError } from '../errors.ts';

/** `error`'s message, and with `hint` its hint, as a warning of a command that goes on says them. */
export function passedOver(error: unknown, hint = true): string {
  const { message } = error as Error;
  const said =
    hint && error instanceof EnginectlError ? error.hint?.replace(/^nothing was run: |; nothing was run$/, '') : '';
  return said ? `${message}; ${said}` : message;
}
