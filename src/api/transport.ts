// One HTTP exchange with a server: URL building, Basic auth, timeout and cancellation, undici
// errors mapped to typed ApiErrors, and the implicit retries of idempotent calls.
import { request, type Dispatcher } from 'undici';
import { formatDuration } from '../duration.ts';
import { USER_AGENT } from '../version.ts';
import { ApiError, type ApiErrorCode } from './errors.ts';
import { backoffDelay, DEFAULT_RETRY, sleep, type RetryPolicy } from './retry.ts';

export const DEFAULT_TIMEOUT_MS = 2 * 60 * 60 * 1000;

export type Query = Record<string, string | number | boolean>;

export type RequestBody =
  | { json: unknown }
  | { text: string; contentType: string };

export interface HttpRequest {
  method: string;
  /** API path, e.g. /api/devops/v1/update/vfs; joined to the server URL's own path. */
  path: string;
  query?: Query | undefined;
  body?: RequestBody | undefined;
  accept?: string | undefined;
  /** May be retried on transient faults. Defaults to true for GET only. */
  idempotent?: boolean | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Lower-cased media type without parameters; '' when absent. */
  contentType: string;
  text: string;
  /** Requests sent for this exchange, retries included. */
  attempts: number;
}

export interface TransportOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number | undefined;
  dispatcher: Dispatcher;
  retry?: RetryPolicy | undefined;
  /** Injected for tests: the wait between retries, and the jitter source. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  /** Told of each retry, so a runner can print it. */
  onRetry?: ((info: { attempt: number; delayMs: number; error: ApiError }) => void) | undefined;
  /**
   * Masks secrets in server text before it is folded, trimmed or quoted in an error message: a
   * secret echoed with two spaces would not be found once the spaces are folded into one.
   */
  redact?: ((text: string) => string) | undefined;
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|ERR_OSSL_)/;

function systemCode(error: unknown): string {
  const e = error as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof e?.code === 'string' && e.code !== 'UND_ERR_SOCKET' && e.code !== 'UND_ERR_CONNECT') return e.code;
  // AggregateError of a happy-eyeballs connect, or undici's wrapper of a socket error
  if (Array.isArray(e?.errors) && e.errors.length > 0) return systemCode(e.errors[0]);
  if (e?.cause) {
    const inner = systemCode(e.cause);
    if (inner) return inner;
  }
  return typeof e?.code === 'string' ? e.code : '';
}

/**
 * The body as text, decoded chunk by chunk: a 50 MB update report never sits in memory as chunks,
 * their concatenation and the string at once (body.text() holds all three).
 */
async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const chunk of body) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}

export class Transport {
  readonly origin: string;
  private readonly basePath: string;
  private readonly authorization: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.url);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.authorization =
      options.username === undefined
        ? undefined
        : `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
  }

  get username(): string | undefined {
    return this.options.username;
  }

  /** Server text with the secrets masked, for error messages. */
  redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  /** Sends the request; answers every HTTP status; throws ApiError for transport faults only. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const idempotent = req.idempotent ?? req.method === 'GET';
    for (let attempt = 1; ; attempt++) {
      let error: ApiError;
      try {
        const response = await this.once(req, attempt);
        if (!idempotent || attempt > this.retry.retries || ![502, 503, 504].includes(response.status)) return response;
        error = new ApiError('API_HTTP_STATUS', `HTTP ${response.status}`, { method: req.method, path: req.path, status: response.status });
        await this.wait(req, attempt, error, response.headers['retry-after']);
      } catch (caught) {
        if (!(caught instanceof ApiError)) throw caught;
        caught.attempts = attempt;
        if (!idempotent || attempt > this.retry.retries || !caught.transient) throw caught;
        error = caught;
        await this.wait(req, attempt, error);
      }
    }
  }

  private async wait(req: HttpRequest, attempt: number, error: ApiError, retryAfter?: string): Promise<void> {
    const delayMs = backoffDelay(this.retry, attempt, this.random, retryAfter);
    this.options.onRetry?.({ attempt, delayMs, error });
    try {
      await this.sleep(delayMs, req.signal);
    } catch {
      throw this.aborted(req, attempt);
    }
  }

  private url(req: HttpRequest): string {
    const query = req.query
      ? new URLSearchParams(Object.entries(req.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : '';
    return `${this.origin}${this.basePath}${req.path}${query ? `?${query}` : ''}`;
  }

  private async once(req: HttpRequest, attempt: number): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: req.accept ?? 'application/json' };
    if (this.authorization) headers.authorization = this.authorization;
    let body: string | undefined;
    if (req.body && 'json' in req.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body.json);
    } else if (req.body) {
      headers['content-type'] = req.body.contentType;
      body = req.body.text;
    }
    try {
      const res = await request(this.url(req), {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        dispatcher: this.options.dispatcher,
      });
      const text = await readText(res.body);
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const contentType = (flat['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      return { status: res.statusCode, headers: flat, contentType, text, attempts: attempt };
    } catch (error) {
      if (req.signal?.aborted) throw this.aborted(req, attempt, error);
      if (timeout.aborted) {
        throw new ApiError('API_TIMEOUT', `${req.method} ${req.path} on ${this.origin}: no complete answer within ${formatDuration(timeoutMs)}`, {
          method: req.method,
          path: req.path,
          attempts: attempt,
          cause: error,
          hint: 'raise the step or server timeout if the operation is expected to take longer, and check the server is responsive',
        });
      }
      throw this.transportError(req, error, attempt);
    }
  }

  private aborted(req: HttpRequest, attempts: number, cause?: unknown): ApiError {
    return new ApiError('API_ABORTED', `${req.method} ${req.path} on ${this.origin}: cancelled`, {
      method: req.method,
      path: req.path,
      origin: this.origin,
      attempts,
      cause,
    });
  }

  private transportError(req: HttpRequest, error: unknown, attempts: number): ApiError {
    const code = systemCode(error);
    const where = `${req.method} ${req.path} on ${this.origin}`;
    const details = { method: req.method, path: req.path, attempts, cause: error };
    const make = (c: ApiErrorCode, what: string, hint: string) => new ApiError(c, `${where}: ${what}`, { ...details, hint });
    if (code === 'ECONNREFUSED') {
      return make('API_CONNECTION_REFUSED', 'connection refused', 'check that the server is running and that the URL and port are right');
    }
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
      return make(
        'API_CONNECTION_RESET',
        'the connection was closed before the response was complete',
        'the server or a proxy between us dropped the connection; check its logs. A write may or may not have been applied',
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
      return make('API_DNS_FAILURE', `the host name could not be resolved (${code})`, 'check the host name in the server URL and the DNS of this machine');
    }
    if (TLS_CODES.test(code)) {
      return make(
        'API_TLS_FAILURE',
        `TLS failed (${code})`,
        'give the server certificate\'s CA with ca-file, or for a self-signed test server set insecure-skip-tls-verify: true',
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    return make('API_TRANSPORT', `request failed: ${code ? `${code} ` : ''}${reason}`, 'check the network path to the server');
  }
}
