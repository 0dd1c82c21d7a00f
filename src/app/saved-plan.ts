// A saved live plan (plan --live --out F) as written and read back. `run --plan F` checks it
// before anything runs (app/preflight.ts): the same files, vars and selection, the same servers,
// and the same state where it matters, read again with GET requests only. A plan whose state moved
// is stale (app/plan-staleness.ts): the run is refused, naming each difference, as Terraform
// refuses a saved plan whose state has changed.
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { canonicalSelection, type Selection } from '../pipeline/selection.ts';
import type { PlannedStep } from '../runner/plan.ts';
import { valuesHashPlain } from './plain-hash.ts';
import { JOURNAL_KEY_VARIABLE } from '../journal/seal.ts';
import { KeyCheck, PlanServer, unproven, unprovenRefusal } from './plan-servers.ts';

/**
 * 4: a server whose URL holds a secret (masked, it cannot be told from another) is kept with a
 * fingerprint of its URL keyed by ENGINECTL_JOURNAL_KEY and the plan's salt (app/plan-servers.ts);
 * without the key it has none, and the plan is refused (BAD_PLAN). Plans of version 3 are read
 * still, their servers compared by the masked URL, unless a secret was in one: refused the same.
 * 3: the server each instance calls, by name (a run against another one is refused), and each file
 * the pipeline reads (the pipeline, then each include) has its own hash, so a change names the
 * file that changed. 2: each instance is known by its key (runner/resume.ts instanceKey: its
 * step's identity and matrix values), `at` only shown. Plans of versions 1 and 2 kept no server:
 * refused (BAD_PLAN), as a run cannot check that it calls the servers they read.
 */
export const PLAN_VERSION = 4;

const Instance = z.object({
  /** Who it is: runner/resume.ts instanceKey. */
  key: z.string(),
  /** What the messages show of it. */
  at: z.string().describe('"[7/9] System update (target=prod)"'),
  state: z.string(),
  /** What a read found, or what a write would change (masked). */
  text: z.string(),
  /** A write's calls, masked: the paths and bodies the run will send. */
  calls: z.array(
    z.object({
      method: z.string(),
      path: z.string(),
      query: z.record(z.string(), z.unknown()).optional(),
      body: z.unknown().optional(),
    }),
  ),
  write: z.boolean(),
  /** What decides it, by subject (observed.ts): the Engines and versions, licenses, alerts, fields. */
  observed: z.record(z.string(), z.string()).optional(),
});

/** Each file the pipeline reads, in order (the pipeline, then each include by the name it is given), hashed plainly with secrets masked. */
const Files = z.array(z.object({ path: z.string(), sha256: z.string() }));

const Common = {
  pipeline: z.object({ name: z.string(), file: z.string(), sha256: z.string(), files: Files }),
  varsHash: z.string(),
  selection: z.object({
    only: z.record(z.string(), z.array(z.string())),
    skip: z.record(z.string(), z.array(z.string())),
  }),
  createdAt: z.string(),
  instances: z.array(Instance),
};

const Plan = z.object({
  planVersion: z.literal(PLAN_VERSION),
  ...Common,
  /** Drawn for each plan (hex): with ENGINECTL_JOURNAL_KEY, the key of its fingerprints. */
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  /** The server each planned instance calls, by its name in the pipeline: its URL without credentials, masked, and fingerprinted where a secret is in it. */
  servers: z.record(z.string(), PlanServer),
  /** What tells the key of its fingerprints from another key (journal/fingerprint.ts), when it has some. */
  keyCheck: KeyCheck.optional(),
  /** The key's fingerprint of what the masks hide in its files and writes (app/plan-pins.ts), when they hide something and there was a key. */
  pinned: KeyCheck.optional(),
});
/** Version 3: each server's URL masked, no fingerprint. */
const PlanV3 = z.object({ planVersion: z.literal(3), ...Common, servers: z.record(z.string(), z.string()) });
/** A plan of an earlier version, known by its version only. */
const OlderPlan = z.object({ planVersion: z.union([z.literal(1), z.literal(2)]) });

/** A plan as this version saves it (and as the run makes it again, under the saved plan's salt, to compare). */
export type CurrentPlan = z.infer<typeof Plan>;
/** A saved plan as read: of this version, or of version 3 (no salt, no fingerprint). */
export type SavedPlan = Omit<CurrentPlan, 'planVersion' | 'salt'> & {
  planVersion: 3 | typeof PLAN_VERSION;
  salt?: string;
};

export interface PlanIdentity {
  name: string;
  file: string;
  sha256: string;
  files: { path: string; sha256: string }[];
  vars: Readonly<Record<string, unknown>>;
  selection: Selection;
  salt: string;
  servers: Record<string, PlanServer>;
  /** planKeyCheck: when it fingerprinted a server, or pinned what the masks hide. */
  keyCheck?: string;
  /** app/plan-pins.ts: what the masks hide, fingerprinted. */
  pinned?: string;
}

export function savedPlan(identity: PlanIdentity, steps: readonly PlannedStep[], now: number): CurrentPlan {
  return {
    planVersion: PLAN_VERSION,
    pipeline: { name: identity.name, file: identity.file, sha256: identity.sha256, files: identity.files },
    varsHash: valuesHashPlain(identity.vars),
    selection: canonicalSelection(identity.selection),
    createdAt: new Date(now).toISOString(),
    salt: identity.salt,
    servers: identity.servers,
    ...(identity.keyCheck === undefined ? {} : { keyCheck: identity.keyCheck }),
    ...(identity.pinned === undefined ? {} : { pinned: identity.pinned }),
    instances: steps.map((s) => {
      const write = s.live?.state === 'not-sent';
      return {
        key: s.key,
        at: `${s.position} ${s.name}`,
        state: s.live?.state ?? 'planned',
        text: s.live?.text ?? '',
        calls: write
          ? s.calls.map((c) => ({
              method: c.method,
              path: c.path,
              ...(c.query ? { query: c.query } : {}),
              body: c.body,
            }))
          : [],
        write,
        ...(s.live?.observed ? { observed: s.live.observed } : {}),
      };
    }),
  };
}

/** A --plan file this run cannot use (BAD_PLAN, exit 2), saying why; what to do is one wording for all, the table's. */
export function badPlan(path: string, why: string): UsageError {
  return new UsageError('BAD_PLAN', `--plan ${path}: ${why}`, { hint: ERROR_CODES.BAD_PLAN.action });
}

/** Parses a saved plan file's text, or says why it is none. */
export function readSavedPlan(text: string, path: string): SavedPlan {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badPlan(path, 'not JSON');
  }
  const older = OlderPlan.safeParse(json);
  if (older.success)
    throw badPlan(
      path,
      `a saved plan of version ${older.data.planVersion}, made by an older enginectl: it recorded no server, so the run cannot check that it calls the servers the plan read`,
    );
  const version = (json as { planVersion?: unknown } | null)?.planVersion;
  if (typeof version === 'number' && Number.isInteger(version) && version > PLAN_VERSION)
    throw badPlan(
      path,
      `a saved plan of version ${version}, made by a newer enginectl than this one (it reads versions 3 to ${PLAN_VERSION}): upgrade enginectl, or make the plan with this one`,
    );
  const parsed = (version === 3 ? PlanV3 : Plan).safeParse(json);
  if (!parsed.success)
    throw badPlan(
      path,
      `not a saved plan of this enginectl (${parsed.error.issues[0]?.path.join('.') || 'top'}: ${parsed.error.issues[0]?.message})`,
    );
  const plan: SavedPlan =
    parsed.data.planVersion === 3
      ? {
          ...parsed.data,
          servers: Object.fromEntries(Object.entries(parsed.data.servers).map(([name, url]) => [name, { url }])),
        }
      : parsed.data;
  // A server whose URL holds a secret, kept without a fingerprint, could be any server: nothing is compared.
  const [first] = unproven(plan.servers);
  if (first)
    throw badPlan(
      path,
      unprovenRefusal(
        ...first,
        plan.planVersion === 3
          ? 'the plan is of version 3 (an older enginectl), which kept no fingerprint of it'
          : `the plan was made without ${JOURNAL_KEY_VARIABLE}`,
      ),
    );
  const wrong = notWritten(plan);
  if (wrong) throw badPlan(path, `not as enginectl plan --out writes it: ${wrong}`);
  return plan;
}

/**
 * What plan --out could not have written (a file edited by hand): a createdAt that is not the time
 * it writes (toISOString), an instance listed twice (by its key).
 */
function notWritten(saved: SavedPlan): string | undefined {
  const at = Date.parse(saved.createdAt);
  if (Number.isNaN(at) || new Date(at).toISOString() !== saved.createdAt)
    return `its createdAt (${JSON.stringify(saved.createdAt)}) is not a time it writes`;
  const fingerprinted = Object.keys(saved.servers).find((name) => saved.servers[name]!.fingerprint !== undefined);
  if (fingerprinted !== undefined && saved.keyCheck === undefined)
    return `server ${fingerprinted} has a fingerprint, and the plan no keyCheck`;
  if (saved.pinned !== undefined && saved.keyCheck === undefined) return 'it is pinned, and has no keyCheck';
  const seen = new Set<string>();
  for (const i of saved.instances) {
    if (seen.has(i.key)) return `${i.at} is listed twice`;
    seen.add(i.key);
  }
  return undefined;
}
