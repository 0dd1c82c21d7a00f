// The shape of one exchange with a server: the request a step makes, the response it reads, what
// a call observer hears, and the transport's options and limits.
import type { LazyDispatcher } from './dispatcher.ts';
import type { Timer } from './deadline.ts';
import type { RetryPolicy } from './retry.ts';
import type { ApiError } from './errors.ts';
import type { ClockSeen, ServerClock } from './server-clock.ts';

export const DEFAULT_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** The largest answer read by default (a string holds ~512 MiB; update reports reach tens of MiB); see max-response-size. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/**
 * The largest request body: what `enginectl api --data` sends (read no further) and what the
 * emulator accepts (413 beyond). The API states no limit; a step's body is far smaller (the
 * pipeline that holds it is 1 MiB at most).
 */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;
/** What is kept of an answer a call reads only the status of (an error body for its message, a login page's title). */
export const STATUS_ONLY_KEEP = 64 * 1024;

export type Query = Record<string, string | number | boolean>;

export type RequestBody = { json: unknown } | { text: string; contentType: string };

export interface HttpRequest {
  method: string;
  /** API path, e.g. /api/devops/v1/update/vfs; joined to the server URL's own path. */
  path: string;
  query?: Query | undefined;
  body?: RequestBody | undefined;
  accept?: string | undefined;
  /** May be retried on transient faults. Defaults to true for GET only. */
  idempotent?: boolean | undefined;
  /** Only the status matters (transaction-log clear): the body is read to its end, its first STATUS_ONLY_KEEP bytes held. */
  statusOnly?: boolean | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  observer?: CallObserver | undefined;
}

/** A non-idempotent call as an observer hears of it. */
export interface SentCall {
  method: string;
  path: string;
  body: unknown;
  /** The server's clock as this machine last saw it (server-clock.ts), read as the call's record is written (after a verifier's read just before it). */
  serverClock?: (() => ClockSeen | undefined) | undefined;
}

/**
 * Hears each write just before it leaves, its status line when it arrives, and its end: the answer
 * (`api`: its body is the API's, fate.ts) or the error that ended it. `sending` settles once its
 * record is safe (the journal syncs it); when it throws, the request does not leave.
 */
export interface CallObserver {
  sending(call: SentCall): Promise<void> | void;
  status(call: SentCall, status: number): Promise<void> | void;
  answered(call: SentCall, outcome: { status: number; api: boolean } | { error: string }): Promise<void> | void;
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
  /** The largest answer read (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number | undefined;
  dispatcher: LazyDispatcher;
  retry?: RetryPolicy | undefined;
  /** Injected for tests: the wait between retries, the jitter source, the timer of each call's time limit. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  timer?: Timer | undefined;
  /** Kept up to date with the Date of each answer, read against its clock (server-clock.ts). */
  clock?: ServerClock | undefined;
  /** Told of each retry, so a runner can print it. */
  onRetry?: ((info: { attempt: number; delayMs: number; error: ApiError }) => void) | undefined;
  /** Masks secrets in server text before it is folded, trimmed or quoted in an error message (a
   * secret echoed with two spaces would not be found once the spaces are folded into one). */
  redact?: ((text: string) => string) | undefined;
  /** GET requests only: any other is refused before it leaves (plan --live). */
  readOnly?: boolean | undefined;
  /** The plan's walk: answers each request instead of sending it (recording.ts); nothing leaves. */
  answerInstead?: ((req: HttpRequest) => HttpResponse) | undefined;
}
