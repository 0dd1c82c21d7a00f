// A fault rule read from `--fault "[METHOD] PATH SETTINGS"` text or from a rule object posted to
// /_emulator/faults (docs/emulator.md), each setting by the fault kind that owns it (kinds.ts).
import { UsageError } from '../../errors.ts';
import type { FaultSetting } from './kind.ts';
import { FAULT_SETTINGS } from './kinds.ts';
import type { FaultRule, SettingField } from './rule.ts';

function assign<F extends SettingField>(rule: FaultRule, setting: FaultSetting<F>, value: FaultRule[F]): void {
  rule[setting.field] = value;
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
    const setting = FAULT_SETTINGS.find((s) => s.keyword === key);
    if (!setting)
      throw new UsageError('BAD_FAULT', `--fault "${spec}": unknown setting ${key}`, {
        hint: `settings: ${FAULT_SETTINGS.map((s) => s.usage).join(' ')}`,
      });
    assign(rule, setting, setting.fromText(value));
  }
  return rule;
}

/** A rule object as posted to /_emulator/faults: `path`, optional `method`, and settings by their fields. */
export function ruleFromJson(body: unknown): FaultRule {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new UsageError('BAD_FAULT', 'fault rule: send {"spec": "[METHOD] PATH SETTINGS"} or a rule object');
  const { path, method, ...settings } = body as Record<string, unknown>;
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new UsageError('BAD_FAULT', `fault rule: path must be a path starting with /, not ${JSON.stringify(path)}`);
  if (method !== undefined && typeof method !== 'string')
    throw new UsageError('BAD_FAULT', `fault rule: method must be a string, not ${JSON.stringify(method)}`);
  const rule: FaultRule = { ...(method !== undefined ? { method } : {}), path };
  for (const [field, value] of Object.entries(settings)) {
    if (value === undefined || value === null) continue;
    const setting = FAULT_SETTINGS.find((s) => s.field === field);
    if (!setting)
      throw new UsageError('BAD_FAULT', `fault rule: unknown field ${field}`, {
        hint: `fields: ${FAULT_SETTINGS.map((s) => s.field).join(', ')}`,
      });
    assign(rule, setting, setting.fromJson(value));
  }
  return rule;
}
