// The emulator's request and response values. Handlers are functions from EmuRequest to
// EmuResponse; only server.ts opens a socket, so handlers are tested in-process.
import { jsonErrorAt } from '../text/bounded-json.ts';

export interface EmuRequest {
  method: string;
  /** Decoded path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

export interface EmuResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export function json(status: number, value: unknown, contentType = 'application/json'): EmuResponse {
  return { status, headers: { 'content-type': `${contentType}; charset=utf-8` }, body: JSON.stringify(value) };
}

export function text(status: number, value: string): EmuResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: value };
}

export function empty(status: number): EmuResponse {
  return { status };
}

export interface ProblemDetail {
  field: string;
  message: string;
}

/**
 * An error answer. The spec does not show an error body; the emulator's is
 * `{"status": N, "error": "<code>", "message": "...", "details": [{field, message}]}`.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ProblemDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): EmuResponse {
    const body: Record<string, unknown> = { status: this.status, error: this.code, message: this.message };
    if (this.details.length > 0) body.details = this.details;
    const res = json(this.status, body);
    return { ...res, headers: { ...res.headers, ...this.headers } };
  }
}

export const badRequest = (message: string, details: ProblemDetail[] = []) =>
  new HttpProblem(400, 'bad_request', message, details);
export const notFound = (message: string) => new HttpProblem(404, 'not_found', message);

/** The JSON body of a request, or a 400 that says why it is not. */
export function jsonBody(req: EmuRequest): unknown {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpProblem(
      415,
      'unsupported_media_type',
      `expected a JSON body (Content-Type: application/json), got ${type || 'no Content-Type'}`,
    );
  }
  if (req.body.trim() === '') throw badRequest('the request body is empty; a JSON body is required');
  try {
    return JSON.parse(req.body);
  } catch (error) {
    throw badRequest(`the request body is not valid JSON${jsonErrorAt(error)}`);
  }
}

/** A path parameter that must be an integer key. */
export function intParam(value: string, what: string): number {
  if (!/^-?\d+$/.test(value)) throw badRequest(`${what} must be an integer key, got "${value}"`);
  return Number(value);
}
