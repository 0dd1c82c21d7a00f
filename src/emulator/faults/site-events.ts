// The `raise-alert` and `stop-engine` faults: what a 2xx answer sets off at the site, now or
// `after=` later on the emulator's clock (a canary that goes bad after its update, for a rollout's
// analysis): an alert raised on an Engine, an Engine that stops reporting. Monitoring shows them
// as a real server does (api 8.1, 8.2): the alert from the next refresh (engine-view.ts), the
// Engine online until 5 minutes after the last refresh that read it, so a dry run of a pipeline
// that checks too soon passes as it would on the server, never catching what the server would miss.
import { UsageError } from '../../errors.ts';
import { lastUpdate } from '../routes/monitoring.ts';
import type { FaultKind } from './kind.ts';
import { jsonInteger, jsonString, textDuration } from './values.ts';

type Alert = { severity: 'warning' | 'critical'; code: string };

function alert(severity: unknown, code: unknown, complaint: string): Alert {
  if ((severity !== 'warning' && severity !== 'critical') || typeof code !== 'string' || !code)
    throw new UsageError('BAD_FAULT', complaint);
  return { severity, code };
}

export const siteEvents: FaultKind = {
  name: 'site events',
  settings: [
    {
      keyword: 'raise-alert',
      field: 'raiseAlert',
      usage: 'raise-alert=critical:CODE',
      effect:
        'after a 2xx answer, raise an alert of that severity (`warning` or `critical`) and code on the site\'s first Engine (or the `stop-engine=` one), `after=` later on the emulator\'s clock; monitoring lists it from its first refresh after that (every 2 minutes, at the clock\'s even minutes), as a real server does (api 8.1): an alerts gate run straight after the update passes; as a rule field `{"severity": "critical", "code": "CODE"}`',
      fromText(value) {
        const [severity, code] = value.split(':');
        return alert(severity, code, `--fault raise-alert=${value}: write raise-alert=critical:CODE or warning:CODE`);
      },
      fromJson(value) {
        const { severity, code } = (value ?? {}) as Partial<Alert>;
        return alert(
          severity,
          code,
          `fault rule: raiseAlert must be {"severity": "critical" or "warning", "code": "..."}, not ${JSON.stringify(value)}`,
        );
      },
    },
    {
      keyword: 'stop-engine',
      field: 'stopEngine',
      usage: 'stop-engine=ID',
      effect:
        'after a 2xx answer, the Engine stops reporting, `after=` later: monitoring lists it, with the `updatedAt` of the last refresh that read it, until 5 minutes after that refresh (3 to 5 minutes after it stopped), then it is offline; an ID the site has no Engine of makes that answer a 500 naming it (a fault that did nothing would pass a check it was meant to fail)',
      fromText: (value) => value,
      fromJson: (value) => jsonString(value, 'stopEngine'),
    },
    {
      keyword: 'after',
      field: 'afterMs',
      usage: 'after=3m',
      effect:
        'when `raise-alert` or `stop-engine` take effect: that long after the answer (default at once); on the simulated clock of `run --emulator`, the next request at or past that time sees it',
      fromText: (value) => textDuration(value, 'after'),
      fromJson: (value) => jsonInteger(value, 'afterMs'),
    },
  ],
  effect(rule, site) {
    const known = site.state.engines.map((e) => e.instanceId);
    if (rule.stopEngine !== undefined && !known.includes(rule.stopEngine))
      throw new Error(
        `fault rule stop-engine=${rule.stopEngine}: the site has no Engine ${JSON.stringify(rule.stopEngine)} (its Engines: ${known.join(', ') || 'none'})`,
      );
    const at = site.now() + (rule.afterMs ?? 0);
    const engineId = rule.stopEngine ?? site.state.engines[0]?.instanceId;
    const raised = rule.raiseAlert;
    if (raised)
      site.schedule(at, () => {
        const alert = {
          severity: raised.severity,
          code: raised.code,
          message: `raised by the emulator's fault rule`,
          engineId: engineId ?? 'unknown',
        };
        site.state.alerts.push(alert);
        site.shown.raised(alert, at);
      });
    const stopped = rule.stopEngine;
    if (stopped)
      site.schedule(at, () => {
        const engine = site.state.engines.find((e) => e.instanceId === stopped);
        // Its last data is what the last refresh before it stopped read (the time it stopped, not the next request's).
        if (engine) Object.assign(engine, { updatedAt: lastUpdate(engine, at), reporting: false });
      });
  },
};
