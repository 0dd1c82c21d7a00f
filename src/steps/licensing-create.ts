// licensing/create: POST licenses/create; the code it answers is an output, and masked.
import { z } from 'zod';
import { LICENSE_TYPES, LICENSE_TYPE_CODES, type LicenseCreateRequest } from '../api/schemas/licensing.ts';
import { intKey, listOf, numberInput, textInput } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const isoDate = z.iso.date({ message: 'must be a date YYYY-MM-DD' });

/** A license's type: a name or its code (licenseTypeName reads them), an enum so the editor's schema lists them. */
const LICENSE_TYPE_WORDS = [...LICENSE_TYPES, ...Object.keys(LICENSE_TYPE_CODES)] as [string, ...string[]];

const inputs = (w: Wrap) =>
  z.strictObject({
    'licensee-id': w(textInput(z.string().min(1))),
    'licensee-name': w(z.string().min(1)),
    expiration: w(isoDate),
    licenses: w(
      z
        .array(
          z.strictObject({
            product: w(intKey).describe('the product key'),
            quantity: w(numberInput(z.number().positive())).describe('how many (users, connections, processors)'),
            type: w(
              z.enum(LICENSE_TYPE_WORDS, {
                message: `must be one of ${LICENSE_TYPES.join(', ')} or a code ${Object.keys(LICENSE_TYPE_CODES).join(', ')}`,
              }),
            ).describe('connection, processor, nominalUser, simultaneousUser, custom, or their codes C, P, U, S, X'),
            extensions: w(listOf(intKey)).optional().describe('keys of the product extensions licensed'),
          }),
        )
        .min(1, 'needs at least one license'),
    ),
    'licenser-key': w(intKey).optional(),
    'license-version': w(intKey).optional(),
  });

type Inputs = z.infer<ReturnType<typeof inputs>>;

/** The request the step sends: also what its code holds, which verifying a licensing/add of it reads (code-holds.ts). */
export function createRequest(i: Inputs): LicenseCreateRequest {
  return {
    licenseeId: i['licensee-id'],
    licenseeName: i['licensee-name'],
    expiration: i.expiration,
    licenses: i.licenses.map((l) => ({
      productKey: l.product,
      quantity: l.quantity,
      type: l.type,
      ...(l.extensions ? { extensions: l.extensions } : {}),
    })),
    ...(i['licenser-key'] !== undefined ? { licenserKey: i['licenser-key'] } : {}),
    ...(i['license-version'] !== undefined ? { licenseVersion: i['license-version'] } : {}),
  };
}

export default defineStep<Inputs>({
  uses: 'licensing/create',
  summary: 'Create a license code',
  inputs,
  inputDocs: {
    'licensee-id': 'Id of the licensee.',
    'licensee-name': 'Name of the licensee.',
    expiration: 'Expiration date, YYYY-MM-DD.',
    licenses:
      'At least one license: { product, quantity, type (connection, processor, nominalUser, simultaneousUser, custom, or C, P, U, S, X), extensions }.',
    'licenser-key': 'Key of the licenser: only to renew a license.',
    'license-version': 'Licensing version; the most current when absent.',
  },
  outputs: ['code'],
  secretOutputs: ['code'],
  readOnly: false,
  unprovable: 'that the licenser accepts the request: only creating it tells',
  needsServer: true,
  async run(i, env) {
    const code = await env.client().licensing.create(createRequest(i), env.call);
    env.secret(code);
    return {
      outputs: { code },
      figures: `${i.licenses.length} license(s) for ${i['licensee-name']}, expiring ${i.expiration}`,
    };
  },
});
