// Sizes as pipeline files write them: 512MiB, 1GiB, 300MB, 64KiB, or a number of bytes.

const UNIT: Record<string, number> = {
  '': 1,
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
};

/** Bytes of a size, or undefined when the text is not one. */
export function parseSize(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isInteger(text) && text > 0 ? text : undefined;
  const m = /^(\d+)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$/.exec(text.trim());
  if (!m) return undefined;
  const bytes = Number(m[1]) * UNIT[m[2] ?? '']!;
  return bytes > 0 ? bytes : undefined;
}

/** A size for people: 256 MiB, 1.5 GiB, 900 bytes. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
