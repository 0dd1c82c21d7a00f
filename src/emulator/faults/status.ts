// The `status` fault: an answer of the rule's status (and body) instead of handling the request, so
// the state does not change: a refusal, a server error, a proxy's page, a 2xx of the wrong shape.
import { HttpProblem } from '../http.ts';
import type { FaultKind } from './kind.ts';
import { inRange, jsonInteger, jsonString, textInteger } from './values.ts';

export const status: FaultKind = {
  name: 'status',
  settings: [
    {
      keyword: 'status',
      field: 'status',
      usage: 'status=503',
      effect: 'answer that status without handling the request (the state does not change)',
      fromText: (value) =>
        inRange(textInteger(value, 'status'), 100, 599, `--fault status=${value}: not an HTTP status`),
      fromJson: (value) =>
        inRange(jsonInteger(value, 'status'), 100, 599, `fault rule: status ${String(value)} is not an HTTP status`),
    },
    {
      keyword: 'body',
      field: 'body',
      usage: 'body=TEXT',
      effect: 'the body of the `status=` answer (default: a JSON error body)',
      fromText: (value) => value,
      fromJson: (value) => jsonString(value, 'body'),
    },
    {
      keyword: 'content-type',
      field: 'contentType',
      usage: 'content-type=T',
      effect: 'the content type of that body (default: `application/json`)',
      fromText: (value) => value,
      fromJson: (value) => jsonString(value, 'contentType'),
    },
  ],
  instead(rule) {
    if (rule.status === undefined) return undefined;
    return rule.body !== undefined
      ? { status: rule.status, headers: { 'content-type': rule.contentType ?? 'application/json' }, body: rule.body }
      : new HttpProblem(
          rule.status,
          'injected_fault',
          `fault injected by the emulator: HTTP ${rule.status}`,
        ).toResponse();
  },
};
