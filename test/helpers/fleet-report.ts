// The result of a release rolled out over a fleet of any size, as the runner gives it (no emulator:
// 10,000 sites of real calls take minutes), for the report tests and the report bench: three steps
// per site (a gate, a vfs update, a system update) in the shape a real run's instances have, three
// waves (a canary, 10%, the rest); every 500th site's vfs update is refused (its system update then
// skipped), and one site's system update loses its answer (a failure in doubt). The report model is
// built from it by the code (report/model.ts buildReport), never written by hand.
import { newInstance, type StepRun } from '../../src/runner/instance.ts';
import type { RunResult } from '../../src/runner/result.ts';
import type { WaveResult } from '../../src/runner/rollout-result.ts';

export const siteName = (i: number) => `site-${String(i + 1).padStart(5, '0')}`;

/** Where the failures are: site index -> what became of it. */
export function failureAt(i: number, count: number): 'refused' | 'in doubt' | undefined {
  if ((i + 1) % 500 === 0) return 'refused';
  return i === Math.floor(count * 0.777) ? 'in doubt' : undefined;
}

const UPDATE_REPORT = (site: string, what: string) =>
  `# ${what} of PROD on prod-db.example.com (${site})\n\n**Result:** succeeded\n\n## Files\n\n| Key | Path | Before | After | Operation |\n|---|---|---|---|---|\n| 1001 | /reports/sales/summary.rpt | 2 | 3 | updated |\n`;

export function fleetRun(count: number): RunResult {
  const start = Date.UTC(2026, 10, 22, 12, 0, 0);
  const sites = Array.from({ length: count }, (_, i) => siteName(i));
  const bounds = [1, 1 + Math.max(1, Math.round(count * 0.1)), count];
  const waveOf = (i: number) => (i < bounds[0]! ? 1 : i < bounds[1]! ? 2 : 3);
  const steps: StepRun[][] = [[], [], []];
  sites.forEach((site, i) => {
    // 50 sites at a time, 100 ms a step, each wave after the one before it.
    const at = start + Math.floor(i / 50) * 300 + waveOf(i) * 1000;
    const fate = failureAt(i, count);
    const wave = waveOf(i);
    const identity = (step: number, uses: string, name: string) => ({
      key: `${step}:${site}`,
      step,
      name: `${name} (site=${site})`,
      uses,
      matrix: { site },
      server: site,
    });
    steps[0]!.push(
      newInstance(identity(0, 'monitoring/alerts', 'Alerts'), {
        outcome: 'success',
        startedAt: at,
        durationMs: 40 + (i % 30),
        attempts: 1,
        inputs: { 'fail-on': 'critical' },
        figures: '0 critical, 2 warnings',
        warnings: [],
        result: { critical: 0, warnings: 2 },
        wave,
      }),
    );
    const vfs = newInstance(identity(1, 'update/vfs', 'VFS update prod'), {
      outcome: fate === 'refused' ? 'failure' : 'success',
      startedAt: at + 100,
      durationMs: 15 + (i % 20),
      attempts: 1,
      inputs: { target: 'prod', files: [1001] },
      target: 'PROD on prod-db.example.com',
      figures: fate === 'refused' ? undefined : 'files 1, updated 1',
      error:
        fate === 'refused'
          ? {
              code: 'API_HTTP_STATUS',
              message: `POST /api/devops/v1/update/vfs on https://${site}.example.com: the server answered HTTP 409: vfs file 1001 locked at ${site}`,
              hint: 'the server refused the request; its message says why',
            }
          : undefined,
      result: fate === 'refused' ? null : { success: true, report: UPDATE_REPORT(site, 'VFS update') },
      wave,
    });
    steps[1]!.push(vfs);
    steps[2]!.push(
      fate === 'refused'
        ? newInstance(identity(2, 'update/system', 'System update prod'), { outcome: 'skipped', durationMs: 0, wave })
        : newInstance(identity(2, 'update/system', 'System update prod'), {
            outcome: fate === 'in doubt' ? 'failure' : 'success',
            startedAt: at + 200,
            durationMs: 20 + (i % 40),
            attempts: 1,
            inputs: { target: 'prod' },
            target: 'PROD on prod-db.example.com',
            figures: fate ? undefined : 'inserts 3, updates 3, deletes 0, versions 2611001..2611003',
            error:
              fate === 'in doubt'
                ? {
                    code: 'API_CONNECTION_RESET',
                    message: `POST /api/devops/v1/update/system on https://${site}.example.com: the connection was closed before the response was complete`,
                    hint: 'the server or a proxy between us dropped the connection; check its logs. A write may or may not have been applied',
                  }
                : undefined,
            inDoubt:
              fate === 'in doubt' ? { method: 'POST', path: '/api/devops/v1/update/system', status: 200 } : undefined,
            result: fate ? null : { success: true, report: UPDATE_REPORT(site, 'System update') },
            wave,
          }),
    );
  });
  const waves: WaveResult[] = [0, 1, 2].map((w) => {
    const from = w === 0 ? 0 : bounds[w - 1]!;
    const values = sites.slice(from, bounds[w]);
    const failed = values.filter((_, j) => failureAt(from + j, count));
    return {
      wave: w + 1,
      values,
      outcome: failed.length ? 'failed-within-budget' : 'done',
      failed,
      budget: values.length,
    };
  });
  return {
    file: 'pipelines/fleet-rollout.yml',
    name: `Release 2026.11 over ${count.toLocaleString('en')} sites`,
    outcome: 'failure',
    startedAt: start,
    durationMs: Math.ceil(count / 50) * 300 + 4000,
    steps: steps.flat(),
    matrix: { site: sites },
    rollout: { over: 'site', waves },
  };
}
