// A fault rule: which requests it matches (method, path, site, how many times) and the settings of
// the faults it injects, as one flat JSON object (the shape GET /_emulator/faults lists). Each
// setting belongs to one fault kind (kinds.ts lists them; each kind's file says what it does).

export interface FaultRule {
  /** HTTP method; any when absent. */
  method?: string | undefined;
  /** An exact path, or a prefix ending in `*`. */
  path: string;
  latencyMs?: number | undefined;
  hang?: boolean | undefined;
  reset?: 'before' | 'after' | undefined;
  status?: number | undefined;
  body?: string | undefined;
  contentType?: string | undefined;
  gateway?: number | undefined;
  truncate?: boolean | undefined;
  invalidJson?: boolean | undefined;
  chunkDelayMs?: number | undefined;
  echoCredentials?: boolean | undefined;
  raiseAlert?: { severity: 'warning' | 'critical'; code: string } | undefined;
  stopEngine?: string | undefined;
  afterMs?: number | undefined;
  times?: number | undefined;
  site?: string | undefined;
}

/** A field of a rule that a fault kind's setting owns (all but method and path). */
export type SettingField = Exclude<keyof FaultRule, 'method' | 'path'>;

export function matches(rule: FaultRule, method: string, path: string, site?: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.site !== undefined && rule.site !== site) return false;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

/** The rule's settings in one line, for the request log (`fault`): `status=503`, `truncate`. */
export function describeRule(rule: FaultRule): string {
  const parts = Object.entries(rule)
    .filter(([k, v]) => k !== 'path' && k !== 'method' && k !== 'times' && v !== undefined)
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`));
  return parts.join(' ');
}
