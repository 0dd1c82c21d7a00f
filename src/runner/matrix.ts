// Matrix expansion: one instance per combination, in key order; `--only KEY=VALUE` keeps the
// instances with that value.

export type MatrixValue = string | number | boolean;
export type Combination = Record<string, MatrixValue>;

export function expandMatrix(matrix: Record<string, MatrixValue[]> | undefined): Combination[] {
  if (!matrix) return [{}];
  let combos: Combination[] = [{}];
  for (const [key, values] of Object.entries(matrix)) {
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return combos;
}

export function onlyFilter(combination: Combination, only: Readonly<Record<string, string>>): boolean {
  return Object.entries(only).every(([k, v]) => !(k in combination) || String(combination[k]) === v);
}

export function describeCombination(c: Combination): string {
  const parts = Object.entries(c).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
