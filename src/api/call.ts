// Turns HTTP exchanges into results or typed errors: status codes to ApiErrors that say what to do
// (status-error.ts), bodies to values checked against the resource schemas (at a bounded cost:
// bounded-parse.ts).
import type { z } from 'zod';
import { ApiError, htmlGist, isHtml, trimBody } from './errors.ts';
import type { CallObserver, HttpRequest, HttpResponse, Transport } from './transport.ts';
import { jsonErrorAt, parseBoundedJson, TooDeep } from '../text/bounded-json.ts';
import { boundedParse } from './bounded-parse.ts';
import { twiceNamed } from './duplicate-keys.ts';
import { statusError, where } from './status-error.ts';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Told of each non-idempotent request just before it leaves, and of its answer (the journal). */
  observer?: CallObserver | undefined;
}

/** What a step's client is bound to (client.bind): every request it sends carries these, whatever the step passes. */
export interface BoundCall {
  signal: AbortSignal;
  /** The journal's observer of the step's writes: no write of the step leaves without its record. */
  observer?: CallObserver | undefined;
}

export interface CallSpec extends Omit<HttpRequest, 'signal' | 'timeoutMs'> {
  /** What the path names, for a 404: "Engine abc", "license of product 42". */
  resource?: string | undefined;
}

/** The answer's JSON value: a SyntaxError when it is not JSON, an invalid response when it nests past any answer of the API. */
function answerJson(spec: CallSpec, transport: Transport, response: HttpResponse): unknown {
  try {
    return parseBoundedJson(response.text);
  } catch (error) {
    if (error instanceof TooDeep) throw invalidResponse(spec, transport, response, `the answer ${error.message}`);
    throw error;
  }
}

/** The response as a plain value: JSON when the body is JSON, else its text; null when empty. */
export function responseValue(spec: CallSpec, transport: Transport, response: HttpResponse): unknown {
  if (response.text === '') return null;
  if (isJsonType(response.contentType)) {
    try {
      return answerJson(spec, transport, response);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return response.text;
    }
  }
  return response.text;
}

function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}

export function invalidResponse(spec: CallSpec, transport: Transport, response: HttpResponse, what: string): ApiError {
  return new ApiError('API_INVALID_RESPONSE', `${where(spec, transport)}: invalid response: ${what}`, {
    method: spec.method,
    path: spec.path,
    status: response.status,
    body: trimBody(transport.redact(response.text)),
    attempts: response.attempts,
    hint: "the server's answer is not in the shape of the enterprise system's API; check the URL points at the API and not at a proxy or login page",
  });
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

/** Parses a JSON body and checks it against `schema`; a mismatch names the field. */
export function parseBody<S extends z.ZodType>(
  spec: CallSpec,
  transport: Transport,
  response: HttpResponse,
  schema: S,
): z.infer<S> {
  if (response.text === '')
    throw invalidResponse(
      spec,
      transport,
      response,
      `HTTP ${response.status} with an empty body where JSON was expected`,
    );
  if (response.contentType && !isJsonType(response.contentType)) {
    throw invalidResponse(
      spec,
      transport,
      response,
      `expected JSON but got ${response.contentType}: ${trimBody(transport.redact(response.text)).slice(0, 120)}`,
    );
  }
  let value: unknown;
  try {
    value = answerJson(spec, transport, response);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw invalidResponse(spec, transport, response, `the body is not valid JSON${jsonErrorAt(error)}`);
  }
  const twice = twiceNamed(response.text, value);
  if (twice !== undefined) throw invalidResponse(spec, transport, response, twice);
  // Checked at a cost bounded whatever the answer: a list of millions of wrong elements names its first issues.
  const parsed = boundedParse(schema, value);
  if (parsed.success) return parsed.data;
  const issues = parsed.issues.map((i) => `response${issuePath(i.path)}: ${i.message}`);
  const left = parsed.total - parsed.issues.length;
  const more =
    parsed.more === 'not counted'
      ? ' (and more: the rest of the answer was not checked)'
      : left > 0
        ? ` (and ${left} more)`
        : '';
  throw invalidResponse(spec, transport, response, `${issues.join('; ')}${more}`);
}

/** The calls of one server: send, check the status, parse the body; bound to a step's call context, every call carries it. */
export class Caller {
  constructor(
    readonly transport: Transport,
    private readonly bound?: BoundCall,
  ) {}

  /** The raw exchange; throws only for transport faults. */
  send(spec: CallSpec, options: CallOptions = {}): Promise<HttpResponse> {
    const bound = this.bound;
    if (!bound)
      return this.transport.send({
        ...spec,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        observer: options.observer,
      });
    // The bound signal always counts; a step's own (a sibling's cancellation) is added to it, never instead.
    const signal =
      options.signal && options.signal !== bound.signal
        ? AbortSignal.any([bound.signal, options.signal])
        : bound.signal;
    return this.transport.send({ ...spec, signal, timeoutMs: options.timeoutMs, observer: bound.observer });
  }

  /** Sends and requires a 2xx status. */
  async ok(spec: CallSpec, options?: CallOptions): Promise<HttpResponse> {
    const response = await this.send(spec, options);
    if (response.status < 200 || response.status > 299) throw statusError(spec, response, this.transport);
    return response;
  }

  /**
   * Sends and requires a 2xx status, for a call whose answer is its status alone (the clear, a
   * license added or removed): a 2xx that is an HTML page (an SSO proxy's login page, a portal in
   * front of the API) is not the API's word that it acted, and is an invalid response.
   */
  async status(spec: CallSpec, options?: CallOptions): Promise<HttpResponse> {
    const response = await this.ok(spec, options);
    // Only markup is a page, whatever the type says: PHP labels every answer text/html, empty or JSON.
    if (response.text.trimStart().startsWith('<') && isHtml(response.text, response.contentType))
      throw invalidResponse(
        spec,
        this.transport,
        response,
        `HTTP ${response.status} with ${htmlGist(this.transport.redact(response.text))}, not an answer of the API`,
      );
    return response;
  }

  /** Sends, requires 2xx, and returns the JSON body checked against `schema`. */
  async json<S extends z.ZodType>(spec: CallSpec, schema: S, options?: CallOptions): Promise<z.infer<S>> {
    const response = await this.ok(spec, options);
    return parseBody(spec, this.transport, response, schema);
  }

  /** As json, with the time the answer says it was made (its Date header: the server's clock), NaN without one. */
  async dated<S extends z.ZodType>(
    spec: CallSpec,
    schema: S,
    options?: CallOptions,
  ): Promise<{ body: z.infer<S>; date: number }> {
    const response = await this.ok(spec, options);
    return { body: parseBody(spec, this.transport, response, schema), date: Date.parse(response.headers.date ?? '') };
  }
}
