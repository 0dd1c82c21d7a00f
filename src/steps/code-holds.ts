// What a license code holds, where the run knows it. A code is sealed by the licenser: nothing but
// the server reads it, and the answer of the add (the licenses added) is what a write in doubt
// lacks. What is known is what the licensing/create step of the same run that answered the code
// asked for: its request names each license's product, type, quantity and extensions, the licensee
// and the expiration (the server fills in the product's name, and the licenser unless it is named).
import { z } from 'zod';
import { licenseTypeName, type License } from '../api/schemas/licensing.ts';
import { MASK } from '../text/mask.ts';
import createStep, { createRequest } from './licensing-create.ts';
import { resolved, type Producer } from './types.ts';

const Held = z.object({
  productKey: z.int(),
  type: z.string(),
  quantity: z.number(),
  extensions: z.array(z.int()),
  licenseeId: z.string(),
  licenseeName: z.string(),
  expiration: z.string(),
  licenserKey: z.int().optional(),
});
type Held = z.infer<typeof Held>;

/** The licenses a code holds, and the step whose request says so (its instance name). */
export const CodeHolds = z.object({ step: z.string(), licenses: z.array(Held).min(1) });
export type CodeHolds = z.infer<typeof CodeHolds>;

const sorted = (keys: readonly number[] | undefined) => [...(keys ?? [])].sort((a, b) => a - b);

/**
 * What the code holds when a licensing/create of the run answered it; undefined otherwise (a code
 * from a secret, a variable, another run), or when a secret masked part of the request.
 */
export function codeHolds(producer: Producer | undefined): CodeHolds | undefined {
  if (producer?.uses !== createStep.uses || JSON.stringify(producer.inputs).includes(MASK)) return undefined;
  const inputs = createStep.inputs(resolved).safeParse(producer.inputs);
  if (!inputs.success) return undefined;
  const request = createRequest(inputs.data);
  return {
    step: producer.name,
    licenses: request.licenses.map((l) => ({
      productKey: l.productKey,
      type: licenseTypeName(l.type) ?? l.type,
      quantity: l.quantity,
      extensions: sorted(l.extensions),
      licenseeId: request.licenseeId,
      licenseeName: request.licenseeName,
      expiration: request.expiration,
      ...(request.licenserKey === undefined ? {} : { licenserKey: request.licenserKey }),
    })),
  };
}

/** A license read is one the code holds: every field its request named (the expiration by its date; a date-time is read by its date). */
export function isHeld(held: Held, l: License): boolean {
  return (
    l.productKey === held.productKey &&
    l.type === held.type &&
    l.quantity === held.quantity &&
    JSON.stringify(sorted(l.extensions)) === JSON.stringify(held.extensions) &&
    l.licenseeId === held.licenseeId &&
    l.licenseeName === held.licenseeName &&
    l.expiration?.slice(0, 10) === held.expiration &&
    (held.licenserKey === undefined || l.licenserKey === held.licenserKey)
  );
}

/** "product 3, connection 5, until 2027-12-31". */
export const describeHeld = (h: Held) => `product ${h.productKey}, ${h.type} ${h.quantity}, until ${h.expiration}`;
