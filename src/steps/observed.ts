// What a live plan saw that decides a step (plan --live --out), by subject: the Engines online and
// their versions, the licenses, the alerts that decide a gate, the replication configurations, an
// entity's fields. A saved plan keeps it; run --plan reads it again and names each change in words.
import type { License } from '../api/index.ts';

/** Facts by key (`kind:subject`), each a short value. */
export type Observed = Record<string, string>;

type Kind = 'engine' | 'license' | 'alert' | 'config' | 'field' | 'entity';

interface Phrases {
  gone(subject: string, was: string): string;
  added(subject: string, is: string): string;
  changed(subject: string, was: string, is: string): string;
}

const PHRASES: Record<Kind, Phrases> = {
  engine: {
    gone: (s, was) => `${s} went offline (stopped reporting; it ran ${was})`,
    added: (s, is) => `${s} came online (${is})`,
    changed: (s, was, is) => `${s} moved from ${was} to ${is}`,
  },
  license: {
    gone: (s) => `license of ${s} removed`,
    added: (s, is) => `license of ${s} added (${is})`,
    changed: (s, was, is) => `license of ${s}: ${was}, now ${is}`,
  },
  alert: {
    gone: (s) => `alert ${s} cleared`,
    added: (s, is) => `alert ${s} raised${is ? ` (${is})` : ''}`,
    changed: (s, _was, is) => `alert ${s} now says ${is}`,
  },
  config: {
    gone: (s) => `replication configuration ${s} removed`,
    added: (s, is) => `replication configuration ${s} added (${is})`,
    changed: (s, was, is) => `replication configuration ${s} was ${was}, now ${is}`,
  },
  field: {
    gone: (s) => `${s}: no longer read`,
    added: (s, is) => `${s} is ${is}`,
    changed: (s, was, is) => `${s} was ${was}, now ${is}`,
  },
  entity: {
    gone: (s) => `${s} deleted`,
    added: (s, is) => `${s} is there (${is})`,
    changed: (s, was, is) => `${s} was ${was}, now ${is}`,
  },
};

export const fact = (kind: Kind, subject: string) => `${kind}:${subject}`;

/** Each change from `was` to `is`, in words: "eng-prod-02 went offline", "license of Payroll (…) removed". */
export function observedChanges(was: Observed, is: Observed): string[] {
  const out: string[] = [];
  const say = (key: string) => {
    const at = key.indexOf(':');
    return { phrases: PHRASES[key.slice(0, at) as Kind] ?? PHRASES.field, subject: key.slice(at + 1) };
  };
  for (const [key, value] of Object.entries(was)) {
    const { phrases, subject } = say(key);
    if (!(key in is)) out.push(phrases.gone(subject, value));
    else if (is[key] !== value) out.push(phrases.changed(subject, value, is[key]!));
  }
  for (const [key, value] of Object.entries(is)) {
    if (key in was) continue;
    const { phrases, subject } = say(key);
    out.push(phrases.added(subject, value));
  }
  return out;
}

export function engineFacts(engines: readonly { id?: string; instanceId?: string; version: string }[]): Observed {
  return Object.fromEntries(engines.map((e) => [fact('engine', String(e.instanceId ?? e.id)), e.version]));
}

export function licenseFacts(licenses: readonly License[]): Observed {
  const out: Observed = {};
  for (const l of licenses) {
    const subject = `${l.productName ?? `product ${l.productKey}`} (${[`${l.type}${l.quantity === undefined ? '' : ` ${l.quantity}`}`, l.licenseeId].filter(Boolean).join(', ')})`;
    let key = fact('license', subject);
    for (let n = 2; key in out; n++) key = fact('license', `${subject} #${n}`);
    out[key] = `until ${l.expiration ?? 'no expiry'}`;
  }
  return out;
}
