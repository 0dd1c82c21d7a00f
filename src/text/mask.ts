// What stands in for a secret wherever one would be shown.
export const MASK = '***';
