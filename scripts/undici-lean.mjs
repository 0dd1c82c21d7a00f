// The parts of undici enginectl calls (Agent, Client, EnvHttpProxyAgent, Pool, request), imported one by one.
// build.mjs bundles this in place of undici's index, which also brings fetch, WebSocket, the
// caches and the mocks: half of undici's 524 KiB in the CLI bundle, compiled at every start.
// `request` is undici's own, called on the dispatcher as undici's index does.
import Agent from 'undici/lib/dispatcher/agent.js';
import Client from 'undici/lib/dispatcher/client.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import globalDispatcher from 'undici/lib/global.js';

// As undici's index does: every dispatcher gets request, stream, pipeline, upgrade and connect
// (ProxyAgent connects through its proxy with them).
Object.assign(Dispatcher.prototype, api);

export { Agent, Client, EnvHttpProxyAgent, Pool };

export function request(url, opts = {}) {
  const { dispatcher = globalDispatcher.getGlobalDispatcher(), ...rest } = opts;
  const u = new URL(url);
  return api.request.call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}
