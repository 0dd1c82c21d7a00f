// replication/check: the replication configurations, each expected enabled (a drift audit's check
// that a nightly sync still runs). Reads only; replication/sync is the write.
import { z } from 'zod';
import { listOf, textInput } from './inputs.ts';
import { fact } from './observed.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    /** The configurations expected enabled, by key or name; every one when absent. */
    configs: w(listOf(textInput(z.string()))).optional(),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'replication/check',
  summary: 'Replication enabled',
  inputs,
  inputDocs: { configs: 'The replication configurations expected enabled, by key or name; every one when absent.' },
  outputs: ['configs', 'disabled'],
  readOnly: true,
  observed: (o) =>
    Object.fromEntries(
      ((o.configs as { key: number; name: string; enabled: boolean }[] | undefined) ?? []).map((c) => [
        fact('config', `${c.key} ${c.name}`),
        c.enabled ? 'enabled' : 'disabled',
      ]),
    ),
  needsServer: true,
  async run(i, env) {
    const all = await env.client().devops.replicationConfigs(env.call);
    const is = (c: { key: number; name: string }, name: string) =>
      String(c.key) === name || c.name.toLowerCase() === name.toLowerCase();
    const missing = (i.configs ?? []).filter((name) => !all.some((c) => is(c, name)));
    const checked = i.configs ? all.filter((c) => i.configs!.some((name) => is(c, name))) : all;
    const disabled = checked.filter((c) => !c.enabled);
    const configs = checked.map((c) => ({
      key: c.key,
      name: c.name,
      enabled: c.enabled,
      databases: (c.databases ?? []).map((d) => d.name),
    }));
    const figures = `${checked.length - disabled.length} of ${checked.length} enabled${disabled.length ? `; disabled: ${disabled.map((c) => `${c.key} ${c.name}`).join(', ')}` : ''}${missing.length ? `; no configuration ${missing.join(', ')}` : ''}`;
    const outputs = { configs, disabled: disabled.map((c) => c.name) };
    if (missing.length > 0)
      return {
        outputs,
        result: all,
        figures,
        failure: `no replication configuration ${missing.join(', ')}; there are ${all.map((c) => `${c.key} ${c.name}`).join(', ')}`,
      };
    if (disabled.length > 0)
      return {
        outputs,
        result: all,
        figures,
        failure: `replication configuration(s) disabled: ${disabled.map((c) => `${c.key} ${c.name}`).join(', ')}`,
      };
    return { outputs, result: all, figures };
  },
});
