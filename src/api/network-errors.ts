// What undici's socket and TLS errors mean, dug out of their wrappers (the system code:
// ECONNREFUSED, CERT_HAS_EXPIRED...), as typed ApiErrors that say what to check.
import { AFTER_CONNECT, PROXY_TUNNEL_CLOSED, TLS_VERSION } from './undici-fixes.ts';
import { ApiError, type ApiErrorCode } from './errors.ts';
import { LOCALHOST_OFF_MACHINE } from './insecure-http.ts';

/** The exchange an error is about. */
export interface Exchange {
  method: string;
  path: string;
  /** Scheme, host and port (the host a certificate or proxy is about). */
  origin: string;
  /** The server URL with its base path, as the message names it. */
  server: string;
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|ERR_OSSL_)/;

/**
 * The alerts a server sends only in a handshake, refusing the client's part of it: no certificate
 * (certificate_required), one it does not accept, access denied, a handshake it fails. TLS 1.3 has
 * no renegotiation: on a connection open in 1.3 they refuse the handshake the client thought done,
 * before the server read anything the client sent after it. OpenSSL 3.2 and later (Node 24) name
 * the SSLv3-era alerts SSL/TLS_ALERT_*, before it SSLV3_ALERT_*.
 */
const HANDSHAKE_REFUSAL =
  /^ERR_SSL_(TLSV13_ALERT_CERTIFICATE_REQUIRED|(SSLV3|SSL\/TLS)_ALERT_(BAD_CERTIFICATE|UNSUPPORTED_CERTIFICATE|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED|CERTIFICATE_UNKNOWN|HANDSHAKE_FAILURE)|TLSV1_ALERT_(UNKNOWN_CA|ACCESS_DENIED|DECRYPT_ERROR))$/;

/** The innermost error that carries `code` (undici wraps socket and TLS errors). */
function withCode(error: unknown, code: string): Record<string, unknown> | undefined {
  const e = error as { code?: unknown; errors?: unknown[]; cause?: unknown } | undefined;
  if (!e || typeof e !== 'object') return undefined;
  if (e.code === code) return e as Record<string, unknown>;
  for (const inner of [...(Array.isArray(e.errors) ? e.errors : []), e.cause]) {
    const found = withCode(inner, code);
    if (found) return found;
  }
  return undefined;
}

/** When the certificate of `origin` stops (or starts) being valid: read without verifying it. */
export function certificateDates(
  origin: string,
  signal?: AbortSignal,
): Promise<{ validFrom: string; validTo: string } | undefined> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    // Loaded only when a certificate error needs explaining, not at start-up.
    const { connect } = process.getBuiltinModule('node:tls');
    const { isIP } = process.getBuiltinModule('node:net');
    const socket = connect(
      {
        host: url.hostname,
        port: Number(url.port || 443),
        servername: isIP(url.hostname) ? undefined : url.hostname,
        rejectUnauthorized: false,
        timeout: 5_000,
      },
      () => {
        const cert = socket.getPeerCertificate();
        socket.destroy();
        resolve(cert?.valid_to ? { validFrom: cert.valid_from, validTo: cert.valid_to } : undefined);
      },
    );
    const give = () => {
      socket.destroy();
      resolve(undefined);
    };
    socket.on('error', give).on('timeout', give);
    signal?.addEventListener('abort', give, { once: true });
  });
}

export function systemCode(error: unknown): string {
  const e = error as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof e?.code === 'string' && e.code !== 'UND_ERR_SOCKET' && e.code !== 'UND_ERR_CONNECT') return e.code;
  // AggregateError of a happy-eyeballs connect, or undici's wrapper of a socket error
  if (Array.isArray(e?.errors) && e.errors.length > 0) return systemCode(e.errors[0]);
  if (e?.cause) {
    const inner = systemCode(e.cause);
    if (inner) return inner;
  }
  return typeof e?.code === 'string' ? e.code : '';
}

/** A certificate out of its dates, with them (read by certificateDates). */
export function certificateDateError(
  req: Exchange,
  cause: unknown,
  attempts: number,
  code: string,
  dates: { validFrom: string; validTo: string },
): ApiError {
  const expired = code === 'CERT_HAS_EXPIRED';
  return new ApiError(
    'API_TLS_FAILURE',
    `${req.method} ${req.path} on ${req.server}: TLS: the server's certificate ${expired ? `expired on ${dates.validTo}` : `is valid only from ${dates.validFrom}`} (${code})`,
    {
      method: req.method,
      path: req.path,
      attempts,
      cause,
      hint: "have the certificate renewed on the server, and check this machine's clock",
    },
  );
}

/** A failed exchange (no HTTP answer) as the typed error that says what to check. */
export function networkError(req: Exchange, error: unknown, attempts: number): ApiError {
  const code = systemCode(error);
  const where = `${req.method} ${req.path} on ${req.server}`;
  const details = { method: req.method, path: req.path, attempts, cause: error };
  const make = (c: ApiErrorCode, what: string, hint: string) =>
    new ApiError(c, `${where}: ${what}`, { ...details, hint });
  if (code === 'ECONNREFUSED') {
    // A refusal at another port than the server's came from the proxy the request went through.
    const by = withCode(error, code) as { address?: unknown; port?: unknown } | undefined;
    const origin = new URL(req.origin);
    const port = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
    if (typeof by?.port === 'number' && typeof by.address === 'string' && by.port !== port) {
      const address = by.address.includes(':') ? `[${by.address}]` : by.address;
      return make(
        'API_CONNECTION_REFUSED',
        `connection refused by ${address}:${by.port}, not the server's port ${port}: the proxy the call goes through`,
        'check that the proxy HTTPS_PROXY or HTTP_PROXY names is running and its port is right, or exclude this host with NO_PROXY',
      );
    }
    return make(
      'API_CONNECTION_REFUSED',
      'connection refused',
      'check that the server is running and that the URL and port are right',
    );
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
  ) {
    return make(
      'API_CONNECTION_RESET',
      'the connection was closed before the response was complete',
      'the server or a proxy between us dropped the connection; check its logs. A write may or may not have been applied',
    );
  }
  if (code === LOCALHOST_OFF_MACHINE) {
    // A name of this machine (trusted as loopback: credentials over http://, no proxy) the system
    // resolved to another machine's address (insecure-http.ts): never connected to.
    const off = withCode(error, code) as { hostname?: string; address?: string } | undefined;
    // Not a DNS fault: the answer is the system's, and asking again gives it again (never retried).
    return make(
      'API_LOCALHOST_OFF_MACHINE',
      `${off?.hostname} resolves to ${off?.address}, off this machine: a localhost name must be this machine (its credentials go over plain http:// and never through the proxy); nothing was sent`,
      `map ${off?.hostname} to a 127.x.x.x address in /etc/hosts, or put the server's real host name (with https://) in the server URL`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
    return make(
      'API_DNS_FAILURE',
      `the host name could not be resolved (${code})`,
      'check the host name in the server URL and the DNS of this machine',
    );
  }
  const open = withCode(error, code) as { [AFTER_CONNECT]?: unknown; [TLS_VERSION]?: unknown } | undefined;
  if (open?.[AFTER_CONNECT] === true && open[TLS_VERSION] === 'TLSv1.3' && HANDSHAKE_REFUSAL.test(code)) {
    // The server refused the client's part of the handshake (TLS 1.3: after the client's was done).
    const certificate = code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED';
    return make(
      'API_TLS_FAILURE',
      `TLS: the server refused the handshake (${code})${certificate ? ': it requires a client certificate, which enginectl does not send' : ''}; it read no request`,
      'the server or a gateway in front of it requires mutual TLS (a client certificate): reach the API at an address that does not, or have client certificates not required for this client',
    );
  }
  if (TLS_CODES.test(code) && open?.[AFTER_CONNECT] === true) {
    // Not a failed handshake: the connection was open, so the request may have gone out (fate.ts).
    return make(
      'API_CONNECTION_RESET',
      `the TLS connection broke after it was open (${code}): the answer could not be read`,
      'a middlebox rewriting bytes or the server failing mid-answer; check it. A write may or may not have been applied',
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (withCode(error, code)?.cert as { subjectaltname?: string } | undefined)?.subjectaltname;
    const host = new URL(req.origin).hostname;
    return make(
      'API_TLS_FAILURE',
      `TLS: the server's certificate is not for ${host}${names ? `: it names ${names}` : ''} (${code})`,
      `use a host name the certificate names in the server URL, or have the certificate reissued for ${host}`,
    );
  }
  if (/^CERT_(HAS_EXPIRED|NOT_YET_VALID)$/.test(code)) {
    return make(
      'API_TLS_FAILURE',
      `TLS: the server's certificate ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'} (${code})`,
      "have the certificate renewed on the server, and check this machine's clock",
    );
  }
  if (
    /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?)$/.test(
      code,
    )
  ) {
    return make(
      'API_TLS_FAILURE',
      `TLS: the server's certificate is signed by a CA this machine does not trust (${code})`,
      "give the CA certificate (PEM) with the server's ca-file; only for a throw-away test server, insecure-skip-tls-verify: true",
    );
  }
  if (TLS_CODES.test(code))
    return make(
      'API_TLS_FAILURE',
      `TLS failed (${code})`,
      HANDSHAKE_REFUSAL.test(code)
        ? 'the server refused the handshake: it may require a client certificate (mutual TLS), which enginectl does not send, or accept no TLS version or cipher this machine offers; check its TLS settings'
        : "check the server's certificate and the TLS settings of the server (ca-file)",
    );
  if (code === PROXY_TUNNEL_CLOSED) {
    return make(
      'API_PROXY',
      `the proxy closed the connection while opening the tunnel to ${req.origin} (CONNECT)`,
      'check the proxy (HTTPS_PROXY, HTTP_PROXY): it may not allow CONNECT to this host and port; or exclude this host with NO_PROXY',
    );
  }
  const proxied = /Proxy response \((\d+)\)/.exec(error instanceof Error ? error.message : '');
  if (proxied) {
    const status = Number(proxied[1]);
    return status === 407
      ? make(
          'API_PROXY',
          'the proxy asks for authentication (407 Proxy Authentication Required)',
          "put the proxy's user name and password in HTTPS_PROXY or HTTP_PROXY (http://user:password@proxy:port), or exclude this host with NO_PROXY",
        )
      : make(
          'API_PROXY',
          `the proxy refused to connect to ${req.origin} (HTTP ${status})`,
          'check the proxy (HTTPS_PROXY, HTTP_PROXY) and whether this host belongs in NO_PROXY',
        );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return make(
    'API_TRANSPORT',
    `request failed: ${code ? `${code} ` : ''}${reason}`,
    'check the network path to the server',
  );
}
