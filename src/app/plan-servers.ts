// The servers a saved plan was made against, by their names in the pipeline, and the check that a
// run calls the same ones. Each is kept by its URL without credentials, masked: where no secret is
// in it, that is the URL itself, compared as text. Where one is (url: ${{ secrets.PROD_URL }} reads
// *** whatever server the secret names), the masked text cannot tell servers apart, and the URL is
// not written (it may be the secret): the server is kept with a fingerprint of its URL keyed by
// ENGINECTL_JOURNAL_KEY (journal/fingerprint.ts), which a run given the same key compares. Without
// the key a plan can prove nothing of such a server: plan --out warns, run --plan refuses it.
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { JOURNAL_KEY_VARIABLE, journalKey } from '../journal/seal.ts';
import { MASK } from '../text/mask.ts';
import { fingerprint, keyCheck, type FingerprintKey } from '../journal/fingerprint.ts';

const FINGERPRINT = /^hmac-sha256:[0-9a-f]{64}$/;

/** A server as a saved plan keeps it: its masked URL, and where a secret is in it, the key's fingerprint of the URL itself. */
export const PlanServer = z.object({
  url: z.string().describe('"https://***:8443", masked'),
  fingerprint: z.string().regex(FINGERPRINT).optional(),
});
export type PlanServer = z.infer<typeof PlanServer>;

/** A plan's key check (journal/fingerprint.ts keyCheck), kept when it fingerprints a server. */
export const KeyCheck = z.string().regex(FINGERPRINT);

/** Whether a masked URL holds a secret: then it may name any server. */
function holdsSecret(masked: string): boolean {
  return masked.includes(MASK);
}

/** The server as a plan keeps it: `url` is its URL without credentials (never written), `masked` what may be shown of it; fingerprinted when a secret is in it and there is a key. */
export function planServer(url: string, masked: string, key: () => FingerprintKey | undefined): PlanServer {
  const of = holdsSecret(masked) ? key() : undefined;
  return of ? { url: masked, fingerprint: fingerprint(of, url) } : { url: masked };
}

/** The key check a plan keeps: when it fingerprinted a server, or pinned what the masks hide (app/plan-pins.ts). */
export function planKeyCheck(
  servers: Readonly<Record<string, PlanServer>>,
  key: () => FingerprintKey | undefined,
  pinned = false,
): { keyCheck?: string } {
  const of = pinned || Object.values(servers).some((s) => s.fingerprint !== undefined) ? key() : undefined;
  return of ? { keyCheck: keyCheck(of) } : {};
}

/** The servers whose URL holds a secret and that have no fingerprint: the plan cannot prove which server it read. */
export function unproven(servers: Readonly<Record<string, PlanServer>>): [string, PlanServer][] {
  return Object.entries(servers).filter(([, s]) => holdsSecret(s.url) && s.fingerprint === undefined);
}

/** plan --out's warning of a server it cannot fingerprint. */
export function unprovenWarning(name: string, server: PlanServer): string {
  return `server ${name} (${server.url}): its URL holds a secret, and ${JOURNAL_KEY_VARIABLE} is not set: the saved plan cannot prove at run time which server that secret names, and run --plan will refuse it; set ${JOURNAL_KEY_VARIABLE} (a CI secret, the same for plan and run) and make the plan again`;
}

/** Why a saved plan is refused when read (BAD_PLAN) for a server it kept without a fingerprint; `made`: why it kept none. */
export function unprovenRefusal(name: string, server: PlanServer, made: string): string {
  return `the plan cannot prove that server ${name} (${server.url}) is the one it read: its URL holds a secret, and ${made}; set ${JOURNAL_KEY_VARIABLE} (a CI secret, the same for plan and run)`;
}

/**
 * Before anything is read: refuses the run (PLAN_KEY, exit 2) when the plan fingerprinted a server
 * and the run has not the key it did it with. Not "another server": with another key, or none, the
 * run can prove nothing either way.
 */
export function checkPlanKey(
  saved: {
    salt?: string | undefined;
    keyCheck?: string | undefined;
    servers: Readonly<Record<string, PlanServer>>;
    pinned?: string | undefined;
  },
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const kept = Object.entries(saved.servers).filter(([, s]) => s.fingerprint !== undefined);
  if (kept.length === 0 && saved.pinned === undefined) return;
  const key = journalKey(env);
  const which = [
    ...(kept.length > 0
      ? [
          `${kept.map(([name, s]) => `server ${name} (${s.url})`).join(', ')} ${kept.length > 1 ? 'are the ones' : 'is the one'} it read`,
        ]
      : []),
    ...(saved.pinned !== undefined ? ['what the secrets mask in its files and writes is what it read'] : []),
  ].join(', and that ');
  if (key === undefined)
    throw planKey(
      path,
      `the plan was made with ${JOURNAL_KEY_VARIABLE}, which is not set: it cannot prove without the key that ${which}`,
    );
  if (saved.salt === undefined || keyCheck({ key, salt: saved.salt }) !== saved.keyCheck)
    throw planKey(
      path,
      `${JOURNAL_KEY_VARIABLE} is not the key the plan was made with: it cannot prove with this key that ${which}`,
    );
}

function planKey(path: string, why: string): UsageError {
  return new UsageError('PLAN_KEY', `--plan ${path}: ${why}`, { hint: ERROR_CODES.PLAN_KEY.action });
}

/**
 * Each server the run calls now that is not the one the plan read under its name: another URL, or
 * a name the plan called none by. By the fingerprint where the plan kept one (the run's under the
 * same key, checkPlanKey); by the masked URL, which is then the URL, where it did not (one with a
 * secret in it and no fingerprint is refused when read). Known before anything is read, and
 * refused then: a read would send this run's credentials to a server the plan was not made
 * against. A server the plan called and the run does not is told by its instances, gone.
 */
export function serverChanges(
  saved: Readonly<Record<string, PlanServer>>,
  now: Readonly<Record<string, PlanServer>>,
): string[] {
  return Object.entries(now).flatMap(([name, is]) => {
    if (!Object.hasOwn(saved, name)) return [`server ${name} was not called when planned, and is ${is.url} now`];
    const was = saved[name]!;
    if (was.fingerprint === undefined ? was.url === is.url : was.fingerprint === is.fingerprint) return [];
    return was.url === is.url
      ? [`server ${name} is not the one planned: its URL differs in a masked part (${is.url} then and now)`]
      : [`server ${name} was ${was.url} when planned, and is ${is.url} now`];
  });
}
