// The zod schema of a pipeline's schedule (pipeline-format.md, Windows and freezes): `windows:`
// and `freezes:` by name (in the pipeline or an inventory), `window-margin:` and `override-freeze:`.
import { z } from 'zod';
import { durationString } from '../steps/inputs.ts';
import { DURATION_LIMIT, MAX_DURATION_MS, parseDuration } from '../duration.ts';

const text = z.string();

/** A margin that is no percentage: a duration past the limit is told so, as the duration branch would. */
function marginError(issue: { input?: unknown }): string {
  const ms = typeof issue.input === 'string' ? parseDuration(issue.input) : undefined;
  return ms !== undefined && ms > MAX_DURATION_MS
    ? DURATION_LIMIT
    : 'a percentage from 0% to 100% (10%) or a duration (15m)';
}
const matrixValue = z.union([z.string(), z.number(), z.boolean()]);

const scopeKey = z
  .record(z.string(), z.array(matrixValue).min(1))
  .optional()
  .describe('the instances it applies to: { site: [prod-eu] } (each key one of its values); absent: every instance');
const zone = text.describe('an IANA time zone the cron and dates are read in: Europe/Berlin, America/New_York, UTC');
const cron = text.describe(
  'a cron expression (croner: minute hour day month weekday; SAT#3 the third Saturday, L the last): when it opens',
);

/** `windows:` an allowed window by name: when it opens, how long it stays open, in which zone, for which instances. */
export const WindowSchema = z.strictObject({
  cron,
  duration: durationString.describe('how long each opening lasts: 4h'),
  zone,
  matrix: scopeKey,
  quiet: z
    .strictObject({
      except: z
        .array(text)
        .optional()
        .describe("sessions that may stay: a session's userName or applicationName (svc-batch, Monitoring Agent)"),
      'dropping-within': durationString
        .optional()
        .describe('a session whose drop (dropsAt) is due within this long counts as gone: 10m'),
    })
    .optional()
    .describe(
      "a write inside this window waits until the application is quiet: no application session on the server's Engines but those excepted (monitoring sessions); one that cannot start before the window ends is not started",
    ),
});

/** `freezes:` a time no write may start or run in: recurring (cron, duration) or dated ranges, or both. */
export const FreezeSchema = z.strictObject({
  cron: cron.optional(),
  duration: durationString.optional().describe('how long each recurrence lasts (with cron)'),
  dates: z
    .array(
      z.strictObject({
        from: text.describe('2026-12-20 or 2026-12-20T18:00 (in zone), or with an offset (Z, +02:00)'),
        to: text.describe('the end, excluded'),
      }),
    )
    .min(1)
    .optional()
    .describe('dated ranges: a quarter close'),
  zone,
  matrix: scopeKey,
});

export const windows = z
  .record(z.string(), WindowSchema)
  .optional()
  .describe('when writes may run, by name: a site with windows is written only inside one (docs: windows)');
export const freezes = z
  .record(z.string(), FreezeSchema)
  .optional()
  .describe('when no write may run, by name: a freeze beats every window (docs: freezes)');

/** The top-level keys of the schedule besides windows and freezes. */
export const SCHEDULE_KEYS = {
  'window-margin': z
    .union([z.string().regex(/^(100|[1-9]?\d)%$/, { error: marginError }), durationString])
    .optional()
    .describe("added to a write's expected duration before it is admitted into a window: 10% (the default) or 15m"),
  'override-freeze': z
    .array(
      z.union([
        text.describe("an actor: the CI's user (GitHub's actor, GitLab's user login, a Jenkins user)"),
        z
          .strictObject({
            actor: text.optional().describe("the CI's user"),
            repository: text.optional().describe('GITHUB_REPOSITORY, or GitLab CI_PROJECT_PATH: acme/ops'),
            ref: text.optional().describe('GITHUB_REF (refs/heads/main), or GitLab CI_COMMIT_REF_NAME (main)'),
            environment: text.optional().describe('GitLab CI_ENVIRONMENT_NAME: production'),
            workflow: text.optional().describe("GITHUB_WORKFLOW: the workflow's name"),
          })
          .describe("facts of the CI's identity, as its OIDC token's claims mirror them; all must match"),
      ]),
    )
    .optional()
    .describe(
      'who may write inside a freeze or outside a window with --override-freeze --reason: an actor, or facts of the CI identity that must all match (matched on the CI variables, not verified)',
    ),
};
