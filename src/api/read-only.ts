// A read-only client (plan --live, the preflight) refuses any request but GET before it leaves:
// whatever a step asks or a server answers, nothing is written.
import { ApiError } from './errors.ts';

export function readOnlyRefusal(req: { method: string; path: string }, origin: string): ApiError {
  return new ApiError(
    'API_READ_ONLY',
    `${req.method} ${req.path} on ${origin}: not sent: this client sends GET requests only`,
    {
      method: req.method,
      path: req.path,
      hint: 'a live plan reads and never writes; run the pipeline to make this call',
    },
  );
}
