// The `reset` fault: a dropped connection, either before the request is handled (nothing happened)
// or in the middle of the answer, after the API made the change.
import { UsageError } from '../../errors.ts';
import type { FaultKind } from './kind.ts';
import { cut, wire } from './wire.ts';

const moment = (value: unknown, complaint: string): 'before' | 'after' => {
  if (value !== 'before' && value !== 'after') throw new UsageError('BAD_FAULT', complaint);
  return value;
};

export const reset: FaultKind = {
  name: 'reset',
  settings: [
    {
      keyword: 'reset',
      field: 'reset',
      usage: 'reset=before|after',
      effect:
        "`before`: close the connection without handling the request; `after`: handle the request (the change is made), send the first half of the answer's bytes (status line and headers included, so an empty body is cut inside its headers), close",
      fromText: (value) => moment(value, `--fault reset=${value}: say reset=before or reset=after`),
      fromJson: (value) => moment(value, `fault rule: reset must be "before" or "after", not ${JSON.stringify(value)}`),
    },
  ],
  async before(rule, res) {
    if (rule.reset !== 'before') return false;
    res.req.socket.destroy();
    return true;
  },
  async send(rule, res, answer) {
    if (rule.reset !== 'after') return false;
    // Half of the answer, head included: an empty body is cut inside its headers.
    const bytes = wire(answer, Buffer.from(answer.body ?? ''));
    await cut(res, bytes.subarray(0, Math.floor(bytes.length / 2)));
    return true;
  },
};
