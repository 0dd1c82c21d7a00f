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

/**
 * The day a license expires, as the API writes it (YYYY-MM-DD, enterprise-api.md 2.5): also the
 * date of a date-time a server writes instead. Undefined for anything else (no date at all).
 */
function dayOf(expiration: string): number | undefined {
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(expiration);
  if (!date) return undefined;
  const day = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
  return new Date(day).toISOString().slice(0, 10) === expiration.slice(0, 10) ? day : undefined;
}

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
    // No expiration at all: one that does not expire (as before); one written as no date: unknown.
    const read = selected.map((l) => ({ l, day: l.expiration === undefined ? Infinity : dayOf(l.expiration) }));
    const days = read.flatMap(({ day }) => (day === undefined ? [] : [Math.floor((day - today) / DAY)]));
    const undated = read.filter(({ day }) => day === undefined).map(({ l }) => l);
    const daysLeft = days.length > 0 ? Math.min(...days) : null;
    const outputs = { licenses: selected, 'days-left': daysLeft === Infinity ? null : daysLeft };
    const figures = `${selected.length} license(s) for ${what}${outputs['days-left'] !== null ? `, ${outputs['days-left']} day(s) left` : ''}`;
    if (selected.length === 0) return { outputs, result: licenses, figures, failure: `${what} has no license` };
    const min = i['min-days-left'];
    // An expiration the server did not write as a date tells no days left: never read as "never expires".
    if (min !== undefined && undated.length > 0)
      return {
        outputs,
        result: licenses,
        figures,
        failure: `cannot tell the days left of ${what}: ${undated.map((l) => `the license of ${l.productName} expires on ${JSON.stringify(l.expiration)}, no date (YYYY-MM-DD)`).join('; ')}`,
      };
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
