// The emulator's own control routes under /_emulator/ (not part of the enterprise API, no
// authentication; the emulator listens on loopback): the request log, faults and the state.
import { parseFault, ruleFromJson, type FaultSet } from './faults/index.ts';
import { badRequest, empty, HttpProblem, json, jsonBody, type EmuRequest, type EmuResponse } from './http.ts';
import { parseState } from './state-file.ts';
import type { EmulatorState } from './state.ts';
import { EnginectlError } from '../errors.ts';

/** What the control routes see of the emulator (declared here, so neither file imports the other). */
export interface Controlled {
  readonly requests: unknown[];
  readonly faults: FaultSet;
  state: EmulatorState;
}

export function control(emulator: Controlled): (req: EmuRequest) => EmuResponse {
  return (req) => {
    try {
      const route = `${req.method} ${req.path}`;
      switch (route) {
        case 'GET /_emulator/requests':
          return json(200, emulator.requests);
        case 'DELETE /_emulator/requests':
          emulator.requests.length = 0;
          return empty(204);
        case 'GET /_emulator/faults':
          return json(200, emulator.faults.list());
        case 'POST /_emulator/faults': {
          const body = jsonBody(req) as { spec?: unknown } | undefined;
          emulator.faults.add(typeof body?.spec === 'string' ? parseFault(body.spec) : ruleFromJson(body));
          return json(201, emulator.faults.list());
        }
        case 'DELETE /_emulator/faults':
          emulator.faults.clear();
          return empty(204);
        case 'GET /_emulator/state':
          return json(200, emulator.state);
        case 'PUT /_emulator/state':
          emulator.state = parseState(req.body, 'request body');
          return empty(204);
        default:
          return new HttpProblem(404, 'not_found', `no emulator control route ${route}`).toResponse();
      }
    } catch (error) {
      if (error instanceof HttpProblem) return error.toResponse();
      if (error instanceof EnginectlError) return badRequest(error.message).toResponse();
      throw error;
    }
  };
}
