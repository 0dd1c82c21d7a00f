// The default server from the environment (pipeline-format.md section 1): ENGINE_URL,
// ENGINE_USERNAME, ENGINE_PASSWORD define a server named `default`.
import type { ServerConfig } from '../api/index.ts';
import { serverUrlProblem } from '../api/server-url.ts';
import { UsageError } from '../errors.ts';

export function serverFromEnv(env: Readonly<Record<string, string | undefined>>): ServerConfig | undefined {
  const url = env.ENGINE_URL;
  if (!url) return undefined;
  const problem = serverUrlProblem(url);
  if (problem) throw new UsageError('BAD_SERVER_URL', `ENGINE_URL: the URL ${problem}`, { hint: 'set ENGINE_URL to the base_url of the API, e.g. https://erp.example.com' });
  return { url, username: env.ENGINE_USERNAME, password: env.ENGINE_PASSWORD, allowInsecureHttp: env.ENGINE_ALLOW_INSECURE_HTTP === 'true' };
}
