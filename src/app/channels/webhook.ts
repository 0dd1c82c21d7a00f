// The webhook channel: as a run ends, its JSON report (the document --report-json writes) is
// POSTed to a URL with undici, Content-Type application/json (a user and password in the URL sent
// as Basic authorization). The URL is a secret (a query string
// or a path often carries a token): registered with the masker before anything is printed, never
// named in what this channel says. A failure (refused, a status other than 2xx, no answer in
// time, cut by SIGINT or SIGTERM) is a warning; the run's outcome and exit code stay what they were.
import { createDispatcher } from '../../api/dispatcher.ts';
import { loadUndici } from '../../api/undici.ts';
import type { Env } from '../../environment.ts';
import type { ErrorCode } from '../../error-codes.ts';
import { UsageError } from '../../errors.ts';
import { renderJson } from '../../report/json.ts';
import type { Masker } from '../../runner/masker.ts';
import type { Channel } from './channel.ts';
import { serverUrl } from '../../api/server-url.ts';

/** How long the whole POST may take (connect, send, answer). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * How long it may take when the command was interrupted before it (the report of a cancelled run
 * is still posted); a signal while it is posted cuts it at once, as the action's GitHub calls.
 */
export const WEBHOOK_AFTER_CANCEL_MS = 5_000;

/**
 * The webhook's URL, checked (http or https) and registered with the masker: the whole URL, and
 * each part of it that may be a token alone (a password, a query value, a path segment).
 * `where` names it in an error ("--webhook", "input webhook"); the URL itself is never shown.
 */
export function webhookUrl(text: string, masker: Masker, where: string, code: ErrorCode): URL {
  const given = text.trim();
  masker.add(given, where);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(code, `${where}: not a URL (the URL is a secret and not shown)`, {
      hint: 'give an http:// or https:// URL',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(code, `${where}: ${url.protocol} is not http:// or https://`, {
      hint: 'give an http:// or https:// URL',
    });
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new UsageError(code, `${where}: a %-escape in it is not UTF-8 (the URL is a secret and not shown)`, {
        hint: 'write each % of the URL that is no escape as %25',
      });
    }
  };
  const parts = [
    url.href,
    decode(url.password),
    ...[...url.searchParams.values()],
    ...url.pathname.split('/').map(decode),
  ];
  decode(url.username);
  // Only parts long enough to be a token: a short one ("hooks") is no secret, and would be refused as weak.
  for (const part of parts) if (part.trim().length >= 8) masker.add(part, where);
  return url;
}

/**
 * `env`: the proxy settings (HTTPS_PROXY, NO_PROXY) the API's calls follow, through the same
 * dispatcher (api/dispatcher.ts): a webhook behind the runner's proxy is reached as the server is.
 */
export function webhookChannel(
  url: URL,
  options: { env: Env; signal?: AbortSignal; timeoutMs?: number; said?: (text: string) => void },
): Channel {
  return {
    name: 'webhook',
    async ended(end) {
      if (!end.report) return;
      const { request } = await loadUndici();
      // A user and password in the URL are sent as Basic authorization (undici sends no userinfo); the URL goes without them.
      const target = serverUrl({ url: url.href }, '--webhook');
      const credentials =
        target.password !== undefined
          ? `Basic ${Buffer.from(`${target.username ?? ''}:${target.password}`).toString('base64')}`
          : undefined;
      const lazy = createDispatcher({}, options.env, undefined, target.url);
      const cancelledBefore = options.signal?.aborted === true;
      // Its own limit, kept to tell its end from the command's signal.
      const limit = AbortSignal.timeout(
        cancelledBefore ? WEBHOOK_AFTER_CANCEL_MS : (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      );
      let status: number;
      try {
        const res = await request(target.url, {
          method: 'POST',
          dispatcher: await lazy.get(),
          headers: {
            'content-type': 'application/json',
            'user-agent': 'enginectl',
            ...(credentials ? { authorization: credentials } : {}),
          },
          body: renderJson(end.report),
          // Follows the command's signal: a run interrupted before it still posts its report, within a short grace.
          signal: cancelledBefore || !options.signal ? limit : AbortSignal.any([limit, options.signal]),
        });
        status = res.statusCode;
        await res.body.dump();
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        // The reason only: undici's message may hold the URL.
        // Its limit first: a signal that came after the limit ended it did not cut it.
        const why = limit.aborted
          ? 'no answer in time'
          : !cancelledBefore && options.signal?.aborted
            ? 'interrupted'
            : (e.code ?? e.name);
        throw new Error(`the report could not be posted (${why})`, { cause: error });
      } finally {
        void lazy.close();
      }
      if (status < 200 || status > 299)
        throw new Error(`the report could not be posted: the server answered ${status}`);
      options.said?.(`webhook: the report was posted (${status})`);
    },
  };
}
