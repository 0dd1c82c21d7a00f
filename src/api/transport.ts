// One HTTP exchange with a server: URL building, Basic auth, timeout and cancellation, undici
// errors mapped to typed ApiErrors, and the implicit retries of idempotent calls.
import type { Dispatcher } from 'undici';
import { formatDuration } from '../duration.ts';
import { formatSize } from '../size.ts';
import { USER_AGENT } from '../version.ts';
import { calledAt } from './called-at.ts';
import { deadline } from './deadline.ts';
import { ApiError } from './errors.ts';
import { certificateDateError, certificateDates, networkError, systemCode } from './network-errors.ts';
import { readText, TooLarge } from './read-body.ts';
import { backoffDelay, DEFAULT_RETRY, sleep, type RetryPolicy } from './retry.ts';
import { loadUndici } from './undici.ts';
import { readOnlyRefusal } from './read-only.ts';
import { dotSegmentRefusal } from './dot-segments.ts';
import { inApiShape, STOPPED_BEFORE_SENDING } from './fate.ts';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  STATUS_ONLY_KEEP,
  type HttpRequest,
  type HttpResponse,
  type TransportOptions,
} from './exchange.ts';

export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type CallObserver,
  type HttpRequest,
  type HttpResponse,
  type Query,
  type RequestBody,
  type SentCall,
  type TransportOptions,
} from './exchange.ts';

export class Transport {
  readonly origin: string; // scheme, host and port: where connections go (TLS, proxies)
  readonly server: string; // as messages name it: the URL with its base path (a site behind one host), no credentials
  private readonly authorization: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.url);
    this.origin = base.origin;
    this.server = calledAt(options.url);
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
    if (this.options.answerInstead) return this.options.answerInstead(req);
    if (this.options.readOnly && req.method !== 'GET') throw readOnlyRefusal(req, this.server);
    const badPath = dotSegmentRefusal(req, this.server);
    if (badPath) throw badPath;
    const idempotent = req.idempotent ?? req.method === 'GET';
    if (!idempotent) return this.sendOnce(req);
    for (let attempt = 1; ; attempt++) {
      let error: ApiError;
      try {
        const response = await this.once(req, attempt);
        if (!idempotent || attempt > this.retry.retries || ![502, 503, 504].includes(response.status)) return response;
        error = new ApiError('API_HTTP_STATUS', `HTTP ${response.status}`, {
          method: req.method,
          path: req.path,
          status: response.status,
        });
        await this.wait(req, attempt, error, response.headers['retry-after'], response.headers.date);
      } catch (caught) {
        if (!(caught instanceof ApiError)) throw caught;
        caught.attempts = attempt;
        if (!idempotent || attempt > this.retry.retries || !caught.transient) throw caught;
        error = caught;
        await this.wait(req, attempt, error);
      }
    }
  }

  /** A non-idempotent request: sent once, never repeated, its observer told before and after. */
  private async sendOnce(req: HttpRequest): Promise<HttpResponse> {
    const call = {
      method: req.method,
      path: req.path,
      body: req.body && 'json' in req.body ? req.body.json : req.body?.text,
      serverClock: () => this.options.clock?.latest,
    };
    await req.observer?.sending(call);
    try {
      const response = await this.once(req, 1, (status) => req.observer?.status(call, status));
      await req.observer?.answered(call, {
        status: response.status,
        api: inApiShape(response.status, response.contentType, response.text),
      });
      return response;
    } catch (error) {
      const code = error instanceof ApiError ? (error.neverLeft ? STOPPED_BEFORE_SENDING : error.code) : 'ERROR';
      await req.observer?.answered(call, { error: code });
      throw error;
    }
  }

  private async wait(
    req: HttpRequest,
    attempt: number,
    error: ApiError,
    retryAfter?: string,
    date?: string,
  ): Promise<void> {
    const delayMs = backoffDelay(this.retry, attempt, this.random, retryAfter, date);
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
    return `${this.server}${req.path}${query ? `?${query}` : ''}`;
  }

  private async once(
    req: HttpRequest,
    attempt: number,
    onStatus?: (status: number) => Promise<void> | void,
  ): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const time = deadline(req.signal, timeoutMs, this.options.timer);
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
      const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.options.dispatcher.get()]);
      // Stopped while its record was made durable (or undici loaded): it is not handed to the connection.
      if (req.signal?.aborted) throw Object.assign(this.aborted(req, attempt), { neverLeft: true });
      const sentAt = this.options.clock?.now() ?? NaN;
      const res = await request(this.url(req), {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: time.signal,
        dispatcher,
      });
      this.options.clock?.answered(String(res.headers.date ?? ''), sentAt);
      await onStatus?.(res.statusCode);
      const limit = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      const length = Number(res.headers['content-length'] ?? NaN);
      const statusOnly = req.statusOnly === true;
      if (!statusOnly && length > limit) {
        res.body.destroy();
        throw new TooLarge(limit);
      }
      const text = await readText(res.body, limit, statusOnly ? STATUS_ONLY_KEEP : Infinity, length);
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const contentType = (flat['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      return { status: res.statusCode, headers: flat, contentType, text, attempts: attempt };
    } catch (error) {
      if (error instanceof TooLarge) throw this.tooLarge(req, attempt, error.limit);
      if (error instanceof ApiError && error.neverLeft) throw error;
      if (req.signal?.aborted) throw this.aborted(req, attempt, error);
      if (time.timedOut) {
        throw new ApiError(
          'API_TIMEOUT',
          `${req.method} ${req.path} on ${this.server}: no complete answer within ${formatDuration(timeoutMs)}`,
          {
            method: req.method,
            path: req.path,
            attempts: attempt,
            cause: error,
            hint: 'raise the step or server timeout if the operation is expected to take longer, and check the server is responsive',
          },
        );
      }
      const failure = networkError(
        { method: req.method, path: req.path, origin: this.origin, server: this.server },
        error,
        attempt,
      );
      if (failure.code === 'API_TLS_FAILURE' && /^CERT_(HAS_EXPIRED|NOT_YET_VALID)$/.test(systemCode(error))) {
        const dates = await certificateDates(this.origin, req.signal);
        if (dates)
          throw certificateDateError(
            { method: req.method, path: req.path, origin: this.origin, server: this.server },
            error,
            attempt,
            systemCode(error),
            dates,
          );
      }
      throw failure;
    } finally {
      time.clear();
    }
  }

  private tooLarge(req: HttpRequest, attempts: number, limit: number): ApiError {
    const idempotent = req.idempotent ?? req.method === 'GET';
    return new ApiError(
      'API_RESPONSE_TOO_LARGE',
      `${req.method} ${req.path} on ${this.server}: the answer is larger than ${formatSize(limit)}, the limit of answers from this server${idempotent ? '' : '; the request was sent, and the server may have applied it'}`,
      {
        method: req.method,
        path: req.path,
        attempts,
        hint: `${idempotent ? '' : 'check on the server whether the change was made before sending it again; '}raise max-response-size on the server (servers.NAME.max-response-size) if such answers are expected`,
      },
    );
  }

  private aborted(req: HttpRequest, attempts: number, cause?: unknown): ApiError {
    return new ApiError('API_ABORTED', `${req.method} ${req.path} on ${this.server}: cancelled`, {
      method: req.method,
      path: req.path,
      server: this.server,
      attempts,
      cause,
    });
  }
}
