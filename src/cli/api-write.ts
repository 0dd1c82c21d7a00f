// What `enginectl api` tells of a write it sent whose fate is unknown (api/fate.ts): no journal
// holds it, so the one who sent it is told it may have been applied, before sending it again.
import { attemptFate, inApiShape, type AttemptEvidence } from '../api/fate.ts';
import { ApiError } from '../api/errors.ts';
import type { RawResponse } from '../api/index.ts';
import { neutralise } from '../text/neutralise.ts';

/** The line to print when a write's fate is unknown (a 503, a gateway's page, a timeout, a cancel), else undefined. */
export function unknownWriteLine(method: string, path: string, ended: RawResponse | unknown): string | undefined {
  if (method === 'GET') return undefined;
  let evidence: AttemptEvidence;
  if (ended instanceof ApiError)
    evidence = ended.neverLeft ? { sent: false } : { sent: true, status: ended.status, error: ended.code };
  else if (ended && typeof ended === 'object' && 'status' in ended) {
    const res = ended as RawResponse;
    evidence = { sent: true, status: res.status, api: inApiShape(res.status, res.contentType, res.text) };
  } else return undefined;
  if (attemptFate(method, path, evidence) !== 'unknown') return undefined;
  return `enginectl: ${neutralise(`${method} ${path}`)}: the request may have reached the server, and the server may have applied it (no answer of the API says it did or did not)\n  hint: check on the server whether the change was made before sending it again\n`;
}

/** For a call's rejection: an error that ended a write that may have been applied says so in its hint; rethrown. */
export function toldOfWrite(method: string, path: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof ApiError) || !unknownWriteLine(method, path, error)) throw error;
    // An error that says so already (an answer too large to read) is not told it again.
    if (/may have applied it/.test(`${error.message} ${error.hint ?? ''}`)) throw error;
    throw new ApiError(error.code, error.message, {
      method: error.method,
      path: error.path,
      status: error.status,
      body: error.body,
      attempts: error.attempts,
      server: error.server,
      cause: error,
      hint: `the request may have reached the server, and the server may have applied it: check on the server whether the change was made before sending it again${error.hint ? `; ${error.hint}` : ''}`,
    });
  };
}
