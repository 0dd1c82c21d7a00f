// Typed errors of the API client. Every error has a stable `code` callers match on, the call it
// concerns (method and path, never credentials) and a message that says what to check.
import { EnginectlError, ExitCode, type ErrorOptions } from '../errors.ts';

export type ApiErrorCode =
  | 'API_CONNECTION_REFUSED'
  | 'API_CONNECTION_RESET'
  | 'API_DNS_FAILURE'
  | 'API_LOCALHOST_OFF_MACHINE'
  | 'API_TLS_FAILURE'
  | 'API_TRANSPORT'
  | 'API_TIMEOUT'
  | 'API_ABORTED'
  | 'API_UNAUTHORIZED'
  | 'API_FORBIDDEN'
  | 'API_NOT_FOUND'
  | 'API_HTTP_STATUS'
  | 'API_INVALID_RESPONSE'
  | 'API_RESPONSE_TOO_LARGE'
  | 'API_PROXY'
  | 'API_REDIRECT'
  | 'API_READ_ONLY'
  | 'API_BAD_PATH';

/** Transport faults worth another try for an idempotent call. */
const TRANSIENT: ReadonlySet<ApiErrorCode> = new Set([
  'API_CONNECTION_REFUSED',
  'API_CONNECTION_RESET',
  'API_DNS_FAILURE',
  'API_TRANSPORT',
]);

export interface ApiErrorDetails extends ErrorOptions {
  method: string;
  /** Path of the call, without the query string. */
  path: string;
  status?: number;
  /** The server's body, trimmed to a readable length. */
  body?: string;
  /** How many requests were sent for this call (retries included). */
  attempts?: number;
  /** The server the call went to: its URL with its base path, no credentials. */
  server?: string;
}

export class ApiError extends EnginectlError {
  readonly exitCode = ExitCode.failed;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly server: string | undefined;
  attempts: number;
  /** Cut by the run's signal before the request was handed to the connection: it never left. */
  neverLeft = false;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    details: ApiErrorDetails,
  ) {
    super(message, details);
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.body = details.body;
    this.server = details.server;
    this.attempts = details.attempts ?? 1;
  }

  /** A transient fault (connection error, 502, 503, 504) that a GET may retry. */
  get transient(): boolean {
    return TRANSIENT.has(this.code) || (this.code === 'API_HTTP_STATUS' && [502, 503, 504].includes(this.status ?? 0));
  }
}

const BODY_LIMIT = 500;

/** The server's body as it goes into an error message: whitespace folded, trimmed to 500 chars. */
export function trimBody(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > BODY_LIMIT ? `${folded.slice(0, BODY_LIMIT)}… (${folded.length} chars)` : folded;
}

/** An HTML page (a proxy's, a load balancer's, a login page) rather than an answer of the API. */
export function isHtml(text: string, contentType = ''): boolean {
  return (
    contentType === 'text/html' ||
    contentType === 'application/xhtml+xml' ||
    /^\s*(<!doctype html|<html[\s>])/i.test(text)
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** How much of a page is searched for its title: a title is near the top. */
const GIST_SCAN = 64 * 1024;

/** The text of the first <tag>…</tag> in `lower` (lower-cased `text`), by index search: linear. */
function element(text: string, lower: string, tag: string): string | undefined {
  const open = lower.indexOf(`<${tag}`);
  if (open < 0) return undefined;
  const start = lower.indexOf('>', open);
  if (start < 0) return undefined;
  const end = lower.indexOf(`</${tag}>`, start);
  return end < 0 ? undefined : text.slice(start + 1, Math.min(end, start + 1 + 1024));
}

/**
 * What an HTML page says in a line: its title, else its first heading; never its markup. Every
 * step is a linear scan of the page's first 64 KiB: a page of a megabyte of `<title>` cannot
 * hold the process.
 */
export function htmlGist(text: string): string {
  const head = text.slice(0, GIST_SCAN);
  const lower = head.toLowerCase();
  const raw = element(head, lower, 'title') ?? element(head, lower, 'h1') ?? '';
  const plain = raw
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  return plain ? `an HTML page: "${plain.length > 120 ? `${plain.slice(0, 120)}…` : plain}"` : 'an HTML page';
}

/** The `message` of a JSON error body when it has one, else the trimmed body. */
export function serverMessage(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return trimBody(parsed.message);
    }
  } catch {
    // not JSON: fall through to the raw body
  }
  return trimBody(text);
}

/**
 * Errors that say the server could not be reached or read at all (refused, reset, no DNS name, a
 * failed TLS handshake, a proxy, no answer in time); with those of `unreachable`, an answer that
 * tells nothing of its state either: nothing was learnt of it.
 */
const UNREACHABLE: ReadonlySet<string> = new Set([
  'API_CONNECTION_REFUSED',
  'API_CONNECTION_RESET',
  'API_DNS_FAILURE',
  'API_LOCALHOST_OFF_MACHINE',
  'API_TLS_FAILURE',
  'API_PROXY',
  'API_TRANSPORT',
  'API_TIMEOUT',
]);

/** Answers that tell nothing of the state: credentials refused (a rotated password), a redirect (to a login), an answer not the API's (a login page). */
const UNREAD: ReadonlySet<string> = new Set([
  'API_UNAUTHORIZED',
  'API_FORBIDDEN',
  'API_REDIRECT',
  'API_INVALID_RESPONSE',
]);

/**
 * Whether nothing was learnt of the server's state: it could not be reached (UNREACHABLE), its
 * answer was none of the API's (UNREAD, a 3xx), it or a gateway in front of it failed (a 5xx, a
 * load balancer's 503 page), or it would not answer yet (408, 429). A drift audit calls such a site
 * unreachable, not drifted: a 404 or a refusal in the API's words says something of the state.
 */
export function unreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (UNREACHABLE.has(error.code) || UNREAD.has(error.code)) return true;
  const status = error.status ?? 0;
  // A 3xx here is no redirect (a cache's 304, a 300: status-error.ts): no answer of the API either.
  const noAnswer = (status >= 300 && status < 400) || status >= 500 || status === 408 || status === 429;
  return error.code === 'API_HTTP_STATUS' && noAnswer;
}
