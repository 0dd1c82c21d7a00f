// The `gateway` fault: a proxy whose read timeout is shorter than the call. The API handles the
// request (the change is made); the client gets the gateway's own HTML error page instead.
import { statusText } from './status-text.ts';
import type { EmuResponse } from '../http.ts';
import type { FaultKind } from './kind.ts';
import { inRange, jsonInteger, textInteger } from './values.ts';

/** What nginx answers in front of an upstream that did not answer in time (or failed): its own HTML page. */
function gatewayPage(status: number): EmuResponse {
  const title = `${status} ${statusText(status) ?? 'Error'}`;
  return {
    status,
    headers: { 'content-type': 'text/html' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}

export const gateway: FaultKind = {
  name: 'gateway',
  settings: [
    {
      keyword: 'gateway',
      field: 'gateway',
      usage: 'gateway=504',
      effect:
        "handle the request (the change is made), then answer that status (400 to 599) with a gateway's HTML error page instead of the API's answer: a proxy whose read timeout is shorter than the call",
      fromText: (value) =>
        inRange(
          textInteger(value, 'gateway'),
          400,
          599,
          `--fault gateway=${value}: a gateway's error status, 400 to 599 (502, 504)`,
        ),
      fromJson: (value) =>
        inRange(
          jsonInteger(value, 'gateway'),
          400,
          599,
          `fault rule: gateway ${String(value)} is not a gateway's error status, 400 to 599 (502, 504)`,
        ),
    },
  ],
  handled: (rule, answer) => (rule.gateway === undefined ? answer : gatewayPage(rule.gateway)),
};
