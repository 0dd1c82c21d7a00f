// Data as text for comparing two readings of it: JSON, but a number kept whole (JSON writes
// Infinity and NaN as null, and -0 as 0, so two readings that differ there would compare equal).
export const exactly = (data: unknown): string =>
  JSON.stringify(data, (_key, value: unknown) =>
    typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))
      ? `number ${Object.is(value, -0) ? '-0' : String(value)}`
      : value,
  );
