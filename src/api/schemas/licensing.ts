// Licensing area resources (enterprise-api.md 2.4 to 2.6 and the licenses/create body of 4.2).
import { z } from 'zod';
import { int, intList, isoDate } from './common.ts';

export const LICENSE_TYPES = ['connection', 'processor', 'nominalUser', 'simultaneousUser', 'custom'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

/** Type codes accepted on creation (2.4). */
export const LICENSE_TYPE_CODES: Readonly<Record<string, LicenseType>> = {
  C: 'connection',
  P: 'processor',
  U: 'nominalUser',
  S: 'simultaneousUser',
  X: 'custom',
};

/**
 * A type name or its one-letter code, as the name; undefined when it is neither. A code is an own
 * key of the table: "constructor" or "toString" is not a code (2.4 lists the five).
 */
export function licenseTypeName(value: string): LicenseType | undefined {
  if ((LICENSE_TYPES as readonly string[]).includes(value)) return value as LicenseType;
  return Object.hasOwn(LICENSE_TYPE_CODES, value) ? LICENSE_TYPE_CODES[value] : undefined;
}

export const License = z.lazy(() =>
  z.looseObject({
    productName: z.string().optional(),
    productKey: int,
    type: z.string(),
    quantity: z.number().optional(),
    extensions: intList.optional(),
    licenseeName: z.string().optional(),
    licenseeId: z.string().optional(),
    licenserKey: int.optional(),
    expiration: z.string().optional(),
  }),
);
export type License = z.infer<typeof License>;

export const Product = z.lazy(() => z.looseObject({ name: z.string(), key: int, extensions: intList.optional() }));
export type Product = z.infer<typeof Product>;

export const Extension = z.lazy(() =>
  z.looseObject({
    key: int,
    name: z.string(),
    code: z.string().optional(),
    productName: z.string().optional(),
    productKey: int.optional(),
  }),
);
export type Extension = z.infer<typeof Extension>;

/**
 * One item of `licenses` in the create body. 4.2 calls its keys "number"; they are the keys of
 * the License it makes (2.4: productKey integer, extensions array of integer), so integers.
 */
export const LicenseRequestItem = z.lazy(() =>
  z.strictObject({
    productKey: int,
    quantity: z.number(),
    type: z.string().refine((t) => licenseTypeName(t) !== undefined, {
      message: `must be one of ${LICENSE_TYPES.join(', ')} or a code ${Object.keys(LICENSE_TYPE_CODES).join(', ')}`,
    }),
    extensions: intList.optional(),
  }),
);

/** Body of POST licenses/create. */
export const LicenseCreateRequest = z.lazy(() =>
  z.strictObject({
    // "number" in 4.2, the licenser of a License: an integer key (2.4).
    licenserKey: int.optional(),
    // "Optional; when empty the most current licensing version is used" (4.2): absent, null or "".
    licenseVersion: z.union([z.number(), z.null(), z.literal('')]).optional(),
    licenseeId: z.string().min(1),
    licenseeName: z.string().min(1),
    expiration: isoDate,
    licenses: z.array(LicenseRequestItem).min(1),
  }),
);
export type LicenseCreateRequest = z.infer<typeof LicenseCreateRequest>;
