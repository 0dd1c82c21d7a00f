// Opaque license codes: the licenses of a create request, sealed with AES-256-GCM under a key
// only the emulator knows, so a code cannot be forged or altered and is meaningless to read.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const KEY = createHash('sha256').update('enginectl emulator license key').digest();
const PREFIX = 'ELC1';

export function sealLicenses(payload: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', KEY, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return `${PREFIX}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The payload of a code, or undefined when the code is not one this emulator sealed. */
export function openLicenses(code: string): unknown {
  const [prefix, data, extra] = code.trim().split('.');
  if (prefix !== PREFIX || !data || extra !== undefined) return undefined;
  const raw = Buffer.from(data, 'base64url');
  if (raw.length < 29) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', KEY, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(plain);
  } catch {
    return undefined;
  }
}
