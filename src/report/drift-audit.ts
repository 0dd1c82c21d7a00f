// The drift audit (plan --live --expect): a live plan of a pipeline of checks, read as the fleet's
// expected state. Each site (a server of the pipeline) gets a row: its checks hold, or it drifted,
// with what was found, or it could not be read (its server unreachable: no drift, nothing known). The checks are the pipeline's own read-only steps (a gate on versions,
// alerts, licenses, replication), walked as the live plan walks them; a pipeline that writes is
// no audit and is refused before its result counts.
import { UsageError } from '../errors.ts';
import type { PlannedStep } from '../runner/plan.ts';

export type CheckState = 'holds' | 'drift' | 'unreachable' | 'not-checked';

export interface AuditCheck {
  /** The step instance, as the plan names it: `[1/3] Release 26.11.0 at prod`. */
  check: string;
  state: CheckState;
  /** What was found now (masked). */
  found: string;
}

export interface SiteAudit {
  site: string;
  drifted: boolean;
  /** A check could not reach the site's server: what it holds is not known. */
  unreachable: boolean;
  checks: AuditCheck[];
}

export interface DriftAudit {
  kind: 'enginectl-drift-audit';
  version: 1;
  /** The pipeline's name and file. */
  name: string;
  file: string;
  /** ISO time the state was read. */
  at: string;
  /** The sites that drifted, in pipeline order. */
  drifted: string[];
  /** The sites a check could not reach (their server down, no DNS name, no answer in time): not read, so no drift either. */
  unreachable: string[];
  sites: SiteAudit[];
}

/** The site of a check without a server of its own (an assert over every site). */
export const FLEET_ROW = '(fleet)';

const STATE: Record<NonNullable<PlannedStep['live']>['state'], CheckState | undefined> = {
  holds: 'holds',
  'would-wait': 'drift',
  'fails-now': 'drift',
  'not-read': 'not-checked',
  'after-writes': undefined,
  'not-sent': undefined,
};

/** The audit of a live plan (its steps as plan --live found them, masked). */
export function driftAudit(
  plan: { name: string; steps: readonly PlannedStep[] },
  file: string,
  at: number,
): DriftAudit {
  const writes = plan.steps.filter((s) => s.live?.state === 'not-sent');
  if (writes.length > 0) {
    throw new UsageError(
      'AUDIT_WRITES',
      `${file}: a drift audit only reads, and ${writes.map((s) => `${s.position} ${s.name} (${s.uses})`).join(', ')} would write`,
      {
        hint: 'audit with a pipeline of checks (monitoring/engines with version, monitoring/alerts, licensing/check, replication/check), or drop --expect to see the preflight of this one',
      },
    );
  }
  const sites = new Map<string, SiteAudit>();
  for (const step of plan.steps) {
    const site = step.uses === 'assert' || step.server === undefined ? FLEET_ROW : step.server;
    let row = sites.get(site);
    if (!row) sites.set(site, (row = { site, drifted: false, unreachable: false, checks: [] }));
    const state = step.live?.unreachable ? 'unreachable' : ((step.live && STATE[step.live.state]) ?? 'not-checked');
    row.checks.push({ check: `${step.position} ${step.name}`, state, found: step.live?.text ?? step.note ?? '' });
    if (state === 'drift') row.drifted = true;
    if (state === 'unreachable') row.unreachable = true;
  }
  const rows = [...sites.values()];
  const named = (which: 'drifted' | 'unreachable') => rows.filter((r) => r[which]).map((r) => r.site);
  return {
    kind: 'enginectl-drift-audit',
    version: 1,
    name: plan.name,
    file,
    at: new Date(at).toISOString(),
    drifted: named('drifted'),
    unreachable: named('unreachable'),
    sites: rows,
  };
}
