// licensing/check: the licenses of a product (key or name) and the days before the first expires.
import { z } from 'zod';
import type { License, Product } from '../api/index.ts';
import { licenseFacts } from './observed.ts';
import { numberInput } from './inputs.ts';
import { readsInOrder } from './reads-in-order.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    product: w(z.union([z.number().int(), z.string().min(1)])).optional(),
    'min-days-left': w(numberInput(z.number().int())).optional(),
  });

const DAY = 86_400_000;

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'licensing/check',
  summary: 'Check licenses',
  inputs,
  inputDocs: {
    product: 'The product, by key or name; every license when absent.',
    'min-days-left': 'Fail when the license expires in fewer days than this.',
  },
  outputs: ['licenses', 'days-left'],
  readOnly: true,
  observed: (o) => licenseFacts((o.licenses as License[] | undefined) ?? []),
  needsServer: true,
  async run(i, env) {
    const api = env.client().licensing;
    // Both reads at once; when both fail, the failure named is that of licenses, the first (reads-in-order.ts).
    const [licenses, products] = await readsInOrder<[License[], Product[]]>(env.signal, [
      (signal) => api.licenses({ ...env.call, signal }),
      (signal) => api.products({ ...env.call, signal }),
    ]);
    let selected = licenses;
    let what = 'all products';
    if (i.product !== undefined) {
      const asKey = typeof i.product === 'number' || /^\d+$/.test(i.product) ? Number(i.product) : undefined;
      const product = products.find((p) => p.key === asKey || p.name.toLowerCase() === String(i.product).toLowerCase());
      if (!product) {
        return {
          outputs: { licenses: [], 'days-left': null },
          failure: `no product ${i.product}; products are ${products.map((p) => `${p.key} ${p.name}`).join(', ')}`,
        };
      }
      what = `product ${product.key} (${product.name})`;
      selected = licenses.filter((l) => l.productKey === product.key);
    }
    const today = Math.floor(env.now() / DAY) * DAY;
    const days = selected
      .map((l) => (l.expiration ? Math.floor((Date.parse(`${l.expiration}T00:00:00Z`) - today) / DAY) : Infinity))
      .filter((d) => !Number.isNaN(d));
    const daysLeft = days.length > 0 ? Math.min(...days) : null;
    const outputs = { licenses: selected, 'days-left': daysLeft === Infinity ? null : daysLeft };
    const figures = `${selected.length} license(s) for ${what}${outputs['days-left'] !== null ? `, ${outputs['days-left']} day(s) left` : ''}`;
    if (selected.length === 0) return { outputs, result: licenses, figures, failure: `${what} has no license` };
    const min = i['min-days-left'];
    if (min !== undefined && outputs['days-left'] !== null && outputs['days-left'] < min) {
      return {
        outputs,
        result: licenses,
        figures,
        failure: `a license of ${what} expires in ${outputs['days-left']} day(s), fewer than min-days-left ${min}`,
      };
    }
    return { outputs, result: licenses, figures };
  },
});
