// Zod issues as the emulator's error details: one {field, message} per problem.
import type { z } from 'zod';
import type { ProblemDetail } from './http.ts';

/** The problems of a body parsed with `{ reportInput: true }`: a field whose input is undefined is missing, any other is of the wrong type. */
export function zodProblems(error: z.ZodError): ProblemDetail[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ field: base ? `${base}.${k}` : k, message: `unknown field ${k}` }));
    }
    const field = base || '(body)';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined
        ? `${field} is required`
        : `${field}: ${issue.message}`;
    return [{ field, message }];
  });
}
