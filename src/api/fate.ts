// A write's fate: the one model every path asks (the runner, the journal reader, resume, report,
// merge, verify, the action). Each attempt of a non-idempotent call ends as exactly one of four
// fates, decided from what came back alone; an instance's fate is the join over all its attempts.
// A later attempt's answer never says anything about an earlier attempt's fate.
//
//   not-sent  the request never left (refused before sending, connection refused, DNS, TLS, proxy)
//   refused   the API answered and refused: 4xx in the API's shape (JSON), a documented refusal,
//             or a 2xx whose body the step read as the server's refusal (an update's success: false)
//   applied   the API answered 2xx and its answer was read
//   unknown   everything else: no status line, a reset, a timeout, a 2xx whose body could not be
//             read, 408, 502, 503, 504, any other 5xx, any answer not in the API's shape (a
//             gateway's HTML page): the server may have applied it
export type AttemptFate = 'not-sent' | 'refused' | 'applied' | 'unknown';

/** What one attempt of a write came back with: the evidence its fate is read from. */
export type AttemptEvidence =
  /** It never left (the journal could not record it, the connection was refused). */
  | { sent: false }
  /** It left; what ended it: a status line (with its body's shape), and an error when the exchange broke. */
  | {
      sent: true;
      status?: number | undefined;
      /** The body was the API's: JSON (or empty on a 2xx). Unknown for old journals. */
      api?: boolean | undefined;
      /** The error code that ended the exchange (a reset, a timeout, an unreadable 2xx body). */
      error?: string | undefined;
      /** The step read its 2xx body as the server's refusal (an update's success: false). */
      refused?: boolean | undefined;
    };

/**
 * What a write's answer record says of one the run stopped (a signal, a journal that failed) after
 * its record was kept and before it was handed to the connection: it never left.
 */
export const STOPPED_BEFORE_SENDING = 'STOPPED_BEFORE_SENDING';

/** Errors that prove the request never reached the server. */
const NEVER_LEFT: ReadonlySet<string> = new Set([
  STOPPED_BEFORE_SENDING,
  'API_CONNECTION_REFUSED',
  'API_DNS_FAILURE',
  'API_LOCALHOST_OFF_MACHINE',
  'API_TLS_FAILURE',
  'API_PROXY',
]);

/** Statuses a gateway or a restarting server answers after the API may have acted. */
const GATEWAY: ReadonlySet<number> = new Set([408, 502, 503, 504]);

/** Refusals the API documents beyond 4xx: a replication sync answers 500 with the result of each replication. */
function documentedRefusal(method: string, path: string, status: number): boolean {
  return status === 500 && method === 'POST' && /\/api\/devops\/v1\/replication\/(configs\/[^/]+\/)?sync$/.test(path);
}

/** The one rule: the fate of one attempt of `method path`, from what came back. */
export function attemptFate(method: string, path: string, evidence: AttemptEvidence): AttemptFate {
  if (!evidence.sent) return 'not-sent';
  const { status, error } = evidence;
  if (status === undefined) return error !== undefined && NEVER_LEFT.has(error) ? 'not-sent' : 'unknown';
  // A status line came, then the exchange broke (a body cut, unreadable, too large): unknown.
  if (error !== undefined) return 'unknown';
  if (status >= 200 && status <= 299) return evidence.refused ? 'refused' : 'applied';
  if (GATEWAY.has(status)) return 'unknown';
  // An old journal kept no shape: its 4xx answers were the API's, as enginectl read them then.
  const api = evidence.api ?? status < 500;
  if (!api) return 'unknown';
  if (status >= 400 && status <= 499) return 'refused';
  return documentedRefusal(method, path, status) ? 'refused' : 'unknown';
}

/** One attempt as an instance keeps it. */
export interface Attempt {
  method: string;
  path: string;
  status?: number | undefined;
  fate: AttemptFate;
}

/** An instance's fate: the join over all its attempts of all its writes. */
export interface InstanceFate {
  fate: AttemptFate | 'none';
  /**
   * The write whose fate is unknown (the first such), when the instance is in doubt; `applied`
   * when it was applied by a step that did not succeed (stepDoubt).
   */
  doubt?: { method: string; path: string; status?: number | undefined; applied?: true | undefined } | undefined;
  /** A write applied once and sent again after an attempt that may have applied it too (or applied twice). */
  maybeTwice?: { method: string; path: string } | undefined;
}

/**
 * The join: per write (method and path), applied at least once stays applied; otherwise unknown
 * stays unknown; otherwise refused; otherwise not sent. The instance is in doubt when any write is
 * unknown; a write applied after an earlier unknown (or applied) attempt is "maybe twice".
 */
export function joinFates(attempts: readonly Attempt[]): InstanceFate {
  if (attempts.length === 0) return { fate: 'none' };
  const byCall = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const key = `${a.method} ${a.path}`;
    byCall.set(key, [...(byCall.get(key) ?? []), a]);
  }
  let doubt: InstanceFate['doubt'];
  let maybeTwice: InstanceFate['maybeTwice'];
  let applied = false;
  let refused = false;
  for (const list of byCall.values()) {
    const first = list[0]!;
    const appliedCount = list.filter((a) => a.fate === 'applied').length;
    const unknown = list.find((a) => a.fate === 'unknown');
    if (appliedCount > 0) {
      applied = true;
      if (appliedCount > 1 || unknown) maybeTwice ??= { method: first.method, path: first.path };
    } else if (unknown) {
      doubt ??= {
        method: unknown.method,
        path: unknown.path,
        ...(unknown.status === undefined ? {} : { status: unknown.status }),
      };
    } else if (list.some((a) => a.fate === 'refused')) refused = true;
  }
  const fate: AttemptFate = doubt ? 'unknown' : applied ? 'applied' : refused ? 'refused' : 'not-sent';
  return { fate, ...(doubt ? { doubt } : {}), ...(maybeTwice ? { maybeTwice } : {}) };
}

/**
 * The body's shape, as attemptFate reads it: the API answers JSON (a 2xx may be empty or text, as
 * documented). Its one documented 5xx (a replication sync's 500) carries the result array: a 5xx
 * with any other body is not the API's word of what it did.
 */
export function inApiShape(status: number, contentType: string, text: string): boolean {
  if (status >= 200 && status <= 299) return true;
  if (!(contentType === 'application/json' || contentType.endsWith('+json'))) return false;
  try {
    const value: unknown = JSON.parse(text);
    return status >= 500 ? Array.isArray(value) : value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}

/**
 * The write in doubt of an instance that did not succeed: it failed, or never ended. The join's,
 * else a write the server applied (answered 2xx and read, no refusal in its body): the step failed
 * on it or after it, or never said what it made of it, and sending it again applies it twice. Its
 * last write when that was applied or cut (the join calls a write cut after an applied attempt
 * applied), else its last write applied. One rule for the live run (a retry, a stop) and for its
 * journal read back (journal/read.ts).
 */
export function stepDoubt(attempts: readonly Attempt[]): InstanceFate['doubt'] {
  const joined = joinFates(attempts);
  if (joined.doubt) return joined.doubt;
  const last = attempts.at(-1);
  const write =
    last?.fate === 'applied' || last?.fate === 'unknown' ? last : attempts.findLast((a) => a.fate === 'applied');
  if (!write) return undefined;
  return {
    method: write.method,
    path: write.path,
    ...(write.status === undefined ? {} : { status: write.status }),
    ...(write.fate === 'applied' ? { applied: true as const } : {}),
  };
}

/** What a write in doubt because it was applied says of its answer: "was answered 201: …". */
export function appliedAnswer(status: number | undefined): string {
  return `was answered ${status}: the server applied it, and the step failed`;
}

/** A call in doubt in words, for a list: "POST /path, answered 201; its step did not end in success". */
export function doubtCall(doubt: NonNullable<InstanceFate['doubt']>): string {
  const answered =
    doubt.status === undefined
      ? ''
      : `, answered ${doubt.status}${doubt.applied ? '; its step did not end in success' : ''}`;
  return `${doubt.method} ${doubt.path}${answered}`;
}
