// Fault injection: rules that make matching requests slow, fail, drop or garble. Set from the
// CLI (`--fault "POST /api/devops/v1/update/vfs status=503 times=2"`), from code, or over HTTP
// (POST /_emulator/faults).
import { UsageError } from '../errors.ts';

export interface FaultRule {
  /** HTTP method; any when absent. */
  method?: string | undefined;
  /** An exact path, or a prefix ending in `*`. */
  path: string;
  /** Wait this long before answering. */
  latencyMs?: number | undefined;
  /** Answer with this status without handling the request. */
  status?: number | undefined;
  /** Body of that answer (default: a JSON error body). */
  body?: string | undefined;
  contentType?: string | undefined;
  /** Drop the connection: `before` handling (nothing happened), or `after` (the change was made; half the response is sent). */
  reset?: 'before' | 'after' | undefined;
  /** Handle (the API applies it), then answer this status with a gateway's HTML page instead of the API's answer: a proxy whose read timeout is shorter than the call. */
  gateway?: number | undefined;
  /** Handle, then send a body shorter than its Content-Length and close. */
  truncate?: boolean | undefined;
  /** Handle, then send `{"broken":` instead of the body. */
  invalidJson?: boolean | undefined;
  /** Never answer: the client's timeout or cancellation must end the call. */
  hang?: boolean | undefined;
  /** Send the body in 16 chunks with this delay between them. */
  chunkDelayMs?: number | undefined;
  /** A hostile server: write the request's credentials back into the answer's text (echo.ts). */
  echoCredentials?: boolean | undefined;
  /** Apply to this many matching requests, then stop; every one when absent. */
  times?: number | undefined;
  /** Only the requests to this site (sites.ts). */
  site?: string | undefined;
  /** After a 2xx answer, `after` later on the emulator's clock: an alert raised (severity and code), an Engine stopped reporting. */
  raiseAlert?: { severity: 'warning' | 'critical'; code: string } | undefined;
  stopEngine?: string | undefined;
  afterMs?: number | undefined;
}

export function matches(rule: FaultRule, method: string, path: string, site?: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.site !== undefined && rule.site !== site) return false;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

export class FaultSet {
  private rules: FaultRule[] = [];

  add(rule: FaultRule): this {
    this.rules.push({ ...rule });
    return this;
  }

  clear(): void {
    this.rules = [];
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** The first rule for this request, counting one use of it. */
  take(method: string, path: string, site?: string): FaultRule | undefined {
    const rule = this.rules.find((r) => matches(r, method, path, site) && (r.times === undefined || r.times > 0));
    if (rule?.times !== undefined) rule.times -= 1;
    return rule;
  }
}

const DURATION = /^(\d+)(ms|s|m)?$/;

function duration(value: string, flag: string): number {
  const m = DURATION.exec(value);
  if (!m)
    throw new UsageError('BAD_FAULT', `--fault ${flag}=${value}: not a duration`, { hint: 'write 250ms, 2s or 1m' });
  return Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1);
}

function integer(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError('BAD_FAULT', `--fault ${flag}=${value}: not a whole number`);
  return Number(value);
}

/** Parses `[METHOD] PATH key=value…` (see docs/emulator.md). */
export function parseFault(spec: string): FaultRule {
  const tokens = spec.trim().split(/\s+/);
  const rule: FaultRule = { path: '' };
  if (tokens[0] && !tokens[0].startsWith('/')) rule.method = tokens.shift()!.toUpperCase();
  const path = tokens.shift();
  if (!path?.startsWith('/')) {
    throw new UsageError('BAD_FAULT', `--fault "${spec}": no path`, {
      hint: 'write --fault "[METHOD] /api/... status=503 times=2"',
    });
  }
  rule.path = path;
  for (const token of tokens) {
    const eq = token.indexOf('=');
    const key = eq < 0 ? token : token.slice(0, eq);
    const value = eq < 0 ? '' : token.slice(eq + 1);
    switch (key) {
      case 'latency':
        rule.latencyMs = duration(value, key);
        break;
      case 'status':
        rule.status = integer(value, key);
        break;
      case 'body':
        rule.body = value;
        break;
      case 'content-type':
        rule.contentType = value;
        break;
      case 'reset':
        if (value !== 'before' && value !== 'after')
          throw new UsageError('BAD_FAULT', `--fault reset=${value}: say reset=before or reset=after`);
        rule.reset = value;
        break;
      case 'gateway':
        rule.gateway = integer(value, key);
        break;
      case 'truncate':
        rule.truncate = true;
        break;
      case 'invalid-json':
        rule.invalidJson = true;
        break;
      case 'hang':
        rule.hang = true;
        break;
      case 'chunk-delay':
        rule.chunkDelayMs = duration(value, key);
        break;
      case 'echo-credentials':
        rule.echoCredentials = true;
        break;
      case 'times':
        rule.times = integer(value, key);
        break;
      case 'site':
        rule.site = value;
        break;
      case 'raise-alert': {
        const [severity, code] = value.split(':');
        if ((severity !== 'warning' && severity !== 'critical') || !code)
          throw new UsageError(
            'BAD_FAULT',
            `--fault raise-alert=${value}: write raise-alert=critical:CODE or warning:CODE`,
          );
        rule.raiseAlert = { severity, code };
        break;
      }
      case 'stop-engine':
        rule.stopEngine = value;
        break;
      case 'after':
        rule.afterMs = duration(value, key);
        break;
      default:
        throw new UsageError('BAD_FAULT', `--fault "${spec}": unknown setting ${key}`, {
          hint: 'settings: latency= status= body= content-type= reset=before|after gateway=STATUS truncate invalid-json hang chunk-delay= echo-credentials times= site= raise-alert=critical:CODE stop-engine=ID after=',
        });
    }
  }
  if (rule.status !== undefined && (rule.status < 100 || rule.status > 599))
    throw new UsageError('BAD_FAULT', `--fault status=${rule.status}: not an HTTP status`);
  if (rule.gateway !== undefined && (rule.gateway < 400 || rule.gateway > 599))
    throw new UsageError(
      'BAD_FAULT',
      `--fault gateway=${rule.gateway}: a gateway's error status, 400 to 599 (502, 504)`,
    );
  return rule;
}
