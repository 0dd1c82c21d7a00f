// The `truncate` fault: the API handles the request, then the answer's body stops halfway, shorter
// than its Content-Length, and the connection closes.
import type { FaultKind } from './kind.ts';
import { jsonFlag } from './values.ts';
import { cut, wire } from './wire.ts';

export const truncate: FaultKind = {
  name: 'truncate',
  settings: [
    {
      keyword: 'truncate',
      field: 'truncate',
      usage: 'truncate',
      effect:
        'handle, then send the headers and half of the body they announce, and close (an empty body announces one byte)',
      fromText: () => true,
      fromJson: (value) => jsonFlag(value, 'truncate'),
    },
  ],
  async send(rule, res, answer) {
    if (!rule.truncate) return false;
    // The whole head, then half of the body it announces; an empty body announces one byte.
    const body = Buffer.from(answer.body ?? '');
    const announced = body.length > 0 ? body : Buffer.from(' ');
    const bytes = wire(answer, announced);
    await cut(res, bytes.subarray(0, bytes.length - announced.length + Math.floor(body.length / 2)));
    return true;
  },
};
