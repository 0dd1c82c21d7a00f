// What undici 7 gets wrong in enginectl's use of it, fixed from the outside: the pools the
// dispatcher (dispatcher.ts) is built with. Each names the upstream behaviour it works around.
import type { Socket } from 'node:net';

/** The code of a tunnel the proxy closed while it was being opened (network-errors.ts names it). */
export const PROXY_TUNNEL_CLOSED = 'ENGINECTL_PROXY_TUNNEL_CLOSED';

/**
 * The client of the proxy, whose CONNECT failing on a closed socket fails the request. undici 7
 * takes that socket error for a recoverable one and opens the tunnel again at once, forever
 * (nodejs/undici#3897: thousands of CONNECTs a second, deaf to signals); undici 8 fails it
 * (#5441) but needs Node 22. This does what undici 8 does, from the outside.
 */
export function tunnelFailing(Pool: typeof import('undici').Pool) {
  return (origin: URL | string, options: object) => {
    const pool = new Pool(origin, options);
    const connect = pool.connect.bind(pool) as (opts: unknown, callback?: unknown) => unknown;
    const failed = (error: { code?: string; message?: string }) =>
      error?.code === 'UND_ERR_SOCKET'
        ? Object.assign(
            new Error(`the proxy closed the connection while opening the tunnel (CONNECT): ${error.message ?? ''}`),
            { code: PROXY_TUNNEL_CLOSED, cause: error },
          )
        : error;
    // ProxyAgent opens each tunnel with the promise form; the callback form is left as it is.
    Object.assign(pool, {
      connect: (opts: unknown, callback?: unknown) =>
        callback
          ? connect(opts, callback)
          : (connect(opts) as Promise<unknown>).catch((error: { code?: string; message?: string }) =>
              Promise.reject(failed(error)),
            ),
    });
    return pool;
  };
}

/** Marks an error a connection gave once open, after the TLS handshake (network-errors.ts reads it). */
export const AFTER_CONNECT = Symbol('enginectl.afterConnect');

/** The TLS version of the open connection an error came from (`TLSv1.3`), when it was TLS. */
export const TLS_VERSION = Symbol('enginectl.tlsVersion');

type Connector = (options: object, callback: (error: Error | null, socket: Socket | null) => void) => void;

/**
 * Pools whose connections close when their socket fails. A TLS socket whose handshake is done
 * emits a record it cannot decrypt (a middlebox rewriting bytes, an alert mid-answer) as an
 * error but stays open, and undici fails the request in flight only at the close: it hung until
 * the call's timeout. The error is marked as the open connection's (AFTER_CONNECT): the request
 * may have gone out, unlike a failed handshake's; with its TLS version (TLS_VERSION): in TLS 1.3
 * the server checks the client's part of the handshake (its certificate) after the client's is
 * done, and refuses it once open. Made for the direct pools and the tunnels alike (ProxyAgent builds
 * its pools with the agent's factory).
 */
export function closingOnError(undici: typeof import('undici')) {
  const guard =
    (connect: Connector): Connector =>
    (options, callback) =>
      connect(options, (error, socket) => {
        socket?.on('error', (failure: unknown) => {
          const version = (socket as { getProtocol?: () => string | null }).getProtocol?.() ?? undefined;
          if (failure !== null && typeof failure === 'object')
            Object.assign(failure, { [AFTER_CONNECT]: true, [TLS_VERSION]: version });
          socket.destroy();
        });
        callback(error, socket);
      });
  return (origin: URL | string, options: object) =>
    new undici.Pool(origin, {
      ...options,
      factory: (at: URL | string, client: { connect: Connector }) =>
        new undici.Client(at, { ...client, connect: guard(client.connect) } as ConstructorParameters<
          typeof undici.Client
        >[1]),
    });
}
