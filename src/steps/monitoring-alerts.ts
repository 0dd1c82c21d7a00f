// monitoring/alerts: fails when an alert at or above `fail-on` is raised (ignoring `ignore-codes`).
import { ENGINE } from './input-docs.ts';
import { z } from 'zod';
import { listOf } from './inputs.ts';
import type { EngineAlert } from '../api/schemas/monitoring.ts';
import { fact } from './observed.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    'fail-on': w(z.enum(['warning', 'critical', 'none'])).optional(),
    'ignore-codes': w(listOf(z.string())).optional(),
    engine: w(z.string()).optional(),
  });

const RANK: ReadonlyMap<string, number> = new Map([
  ['warning', 1],
  ['critical', 2],
]);

/** A severity's rank; one the spec does not list ranks as critical (a Map: `constructor` is no rank). */
const rank = (severity: string): number => RANK.get(severity) ?? 2;

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'monitoring/alerts',
  summary: 'Alerts',
  inputs,
  inputDocs: {
    'fail-on': 'Fail on alerts of this severity or above: warning, critical (default), or none.',
    'ignore-codes': 'Alert codes to ignore, e.g. [outdated_engine].',
    engine: ENGINE,
  },
  outputs: ['warnings', 'criticals', 'alerts'],
  readOnly: true,
  // The alerts that decide the gate: those at or above fail-on, not ignored.
  observed: (o, i) => {
    const failOn = i['fail-on'] ?? 'critical';
    const deciding =
      failOn === 'none'
        ? []
        : ((o.alerts as EngineAlert[] | undefined) ?? []).filter((a) => rank(a.severity) >= rank(failOn));
    return Object.fromEntries(
      deciding.map((a) => [fact('alert', `${a.severity} ${a.code} on ${a.engineId ?? '?'}`), a.message ?? '']),
    );
  },
  needsServer: true,
  async run(i, env) {
    const api = env.client().monitoring;
    const all = i.engine ? await api.engineAlerts(i.engine, env.call) : await api.alerts(env.call);
    const ignored = new Set(i['ignore-codes'] ?? []);
    const alerts = all.filter((a) => !ignored.has(a.code));
    const warnings = alerts.filter((a) => a.severity === 'warning').length;
    const criticals = alerts.filter((a) => a.severity === 'critical').length;
    const failOn = i['fail-on'] ?? 'critical';
    const blocking = failOn === 'none' ? [] : alerts.filter((a) => rank(a.severity) >= rank(failOn));
    return {
      outputs: { warnings, criticals, alerts },
      result: all,
      figures: `${criticals} critical, ${warnings} warning${warnings === 1 ? '' : 's'}${ignored.size ? `, ${all.length - alerts.length} ignored` : ''}`,
      ...(blocking.length > 0
        ? {
            failure: `${blocking.length} alert(s) at or above ${failOn}: ${blocking.map((a) => `${a.severity} ${a.code} on ${a.engineId ?? '?'}${a.message ? ` (${a.message})` : ''}`).join('; ')}`,
          }
        : {}),
    };
  },
});
