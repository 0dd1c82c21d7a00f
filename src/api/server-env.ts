// The default server from the environment (pipeline-format.md section 1): ENGINE_URL,
// ENGINE_USERNAME, ENGINE_PASSWORD (and ENGINE_ALLOW_INSECURE_HTTP) define a server named
// `default`. The one reading of those variables, for `enginectl api` and the pipeline loader.
import type { ServerConfig } from './client.ts';
import { serverUrlProblem } from './server-url.ts';
import { UsageError } from '../errors.ts';

/**
 * The server ENGINE_URL names, or undefined without it. `check` (default): a URL that cannot be
 * called is refused now (BAD_SERVER_URL); a pipeline checks it later, with every other server.
 */
export function serverFromEnv(env: Readonly<Record<string, string | undefined>>, { check = true } = {}): ServerConfig | undefined {
  const url = env.ENGINE_URL;
  if (!url) return undefined;
  const problem = check ? serverUrlProblem(url) : undefined;
  if (problem) throw new UsageError('BAD_SERVER_URL', `ENGINE_URL: the URL ${problem}`, { hint: 'set ENGINE_URL to the base_url of the API, e.g. https://erp.example.com' });
  return { url, username: env.ENGINE_USERNAME, password: env.ENGINE_PASSWORD, allowInsecureHttp: env.ENGINE_ALLOW_INSECURE_HTTP === 'true' };
}
