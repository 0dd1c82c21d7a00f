// The undici dispatcher of one server: a keep-alive pool, TLS options, and the proxy from the
// environment (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, read from the injected env, not process.env).
import type { Env } from '../environment.ts';
import * as fs from 'node:fs';
import type { Dispatcher } from 'undici';
import { UsageError } from '../errors.ts';
import { isLoopback, localhostLookup } from './insecure-http.ts';
import { userPartDecodes } from './server-url.ts';
import { closingOnError, tunnelFailing } from './undici-fixes.ts';
import { loadUndici } from './undici.ts';

export interface TlsOptions {
  /** Path of an extra CA certificate (PEM) trusted besides the system's roots. */
  caFile?: string | undefined;
  /** Skip certificate verification: only for self-signed test servers. */
  insecureSkipTlsVerify?: boolean | undefined;
}

export type { Env } from '../environment.ts';

function envValue(env: Env, name: string): string | undefined {
  return env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? undefined;
}

/**
 * A proxy variable's URL: one without a scheme (`proxy:3128`) is http://, as curl reads it. One
 * that is still not an http(s) URL is invalid input naming the variable as it is set, its value
 * unprinted (it may hold the proxy's password).
 */
function proxyUrl(env: Env, name: string): string | undefined {
  const value = envValue(env, name);
  if (value === undefined || value === '') return value;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  if (URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) && userPartDecodes(new URL(url))) return url;
  const set = env[name.toLowerCase()] !== undefined ? name.toLowerCase() : name.toUpperCase();
  const why = URL.canParse(url) && !userPartDecodes(new URL(url)) ? ' (a % in its user part starts no %XX escape)' : '';
  throw new UsageError('BAD_PROXY', `${set} is not a proxy URL${why}`, {
    hint: `set ${set} to the proxy's URL, e.g. http://proxy.example.com:3128 (with user:password@ when it asks for them), or unset it`,
  });
}

/**
 * TCP keep-alive after 60 s idle, as undici sets it, but given to net.connect, which applies it
 * once connected: undici's own call, on a socket still connecting, fails every connection on
 * Windows under Wine (the Windows executable is exercised there). A system update's call may
 * stay silent for hours: the probes keep NATs and firewalls from dropping it meanwhile.
 */
const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelay: 60_000 } as const;

/**
 * A CA file's text, opened without waiting. A regular file is read; a pipe (a shell's `<(...)`,
 * /dev/stdin) is read as its writer fills it, once one is there: a FIFO nobody writes to is
 * refused at once, never waited on in line (deaf to signals). Anything else is refused.
 */
function readCaFile(path: string): string {
  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile()) return fs.readFileSync(fd, 'utf8');
    if (!stat.isFIFO())
      throw new Error(
        `it is not a file (${stat.isDirectory() ? 'a directory' : stat.isSocket() ? 'a socket' : 'a device'})`,
      );
    return readPipe(path, fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A pipe's text: what is there now, then, while its writer has more to give, the rest (read blocking). */
function readPipe(path: string, fd: number): string {
  const chunks: Buffer[] = [];
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // A writer is there, its text not yet: read the rest as it writes it.
      const blocking = fs.openSync(path, 'r');
      try {
        chunks.push(fs.readFileSync(blocking));
      } finally {
        fs.closeSync(blocking);
      }
      break;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  if (chunks.length === 0) throw new Error('it is a FIFO nobody writes to');
  return Buffer.concat(chunks).toString('utf8');
}

function tlsConnectOptions(tls: TlsOptions, readFile: (path: string) => string) {
  const connect: { ca?: string[]; rejectUnauthorized?: boolean } = {};
  if (tls.caFile) {
    let pem: string;
    try {
      pem = readFile(tls.caFile);
    } catch (error) {
      throw new UsageError('CA_FILE_UNREADABLE', `cannot read the CA file ${tls.caFile}: ${(error as Error).message}`, {
        hint: 'ca-file must name a PEM certificate file readable by this process',
      });
    }
    if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem)) {
      throw new UsageError('CA_FILE_INVALID', `the CA file ${tls.caFile} holds no PEM certificate`, {
        hint: 'ca-file names a PEM file: text between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE----- (convert a DER file with openssl x509 -inform der)',
      });
    }
    // node:tls is loaded here, not at start-up: most runs never name a CA file.
    connect.ca = [...process.getBuiltinModule('node:tls').rootCertificates, pem];
  }
  if (tls.insecureSkipTlsVerify) connect.rejectUnauthorized = false;
  return connect;
}

/** A server's dispatcher, made at its first request (undici loads then); closed with the client. */
export interface LazyDispatcher {
  get(): Promise<Dispatcher>;
  close(): Promise<void>;
}

/** A dispatcher the caller owns (tests): used as it is, never closed here. */
export function givenDispatcher(dispatcher: Dispatcher): LazyDispatcher {
  return { get: async () => dispatcher, close: async () => undefined };
}

/**
 * A dispatcher for one server. Its settings are checked now (an unreadable or empty ca-file is
 * a usage error before anything runs); undici builds it at the first request. undici's own header
 * and body timeouts (300 s) are switched off: a system update may run for hours, and the client's
 * per-request timeout is the one limit.
 */
export function createDispatcher(
  tls: TlsOptions,
  env: Env,
  readFile: (path: string) => string = readCaFile,
  /** The server's URL: a loopback server is never reached through a proxy. */
  url?: string,
): LazyDispatcher {
  const connect = tlsConnectOptions(tls, readFile);
  const common = {
    keepAliveTimeout: 4_000,
    connections: 64,
    headersTimeout: 0,
    bodyTimeout: 0,
    // localhost names must resolve to this machine: loopback is trusted by name (insecure-http.ts).
    connect: { ...connect, ...KEEP_ALIVE, lookup: localhostLookup },
  };
  // Loopback never goes through a proxy: plain http:// with credentials is allowed there only
  // because it never leaves the machine (insecure-http.ts), and a proxy would carry it away.
  const loopback = url !== undefined && URL.canParse(url) && isLoopback(new URL(url).hostname);
  const httpProxy = loopback ? undefined : proxyUrl(env, 'http_proxy');
  const httpsProxy = loopback ? undefined : proxyUrl(env, 'https_proxy');
  const noProxy = envValue(env, 'no_proxy') ?? '';
  // Servers of the same settings share one agent (its pools are per origin): a fleet of 1,000
  // sites behind one API gateway keeps a pool of connections, not 1,000. Closed with its last user.
  const key = JSON.stringify([
    tls.caFile ?? '',
    connect.ca?.length ?? 0,
    tls.insecureSkipTlsVerify === true,
    httpProxy ?? '',
    httpsProxy ?? '',
    noProxy,
  ]);
  let entry = SHARED.get(key);
  if (!entry) SHARED.set(key, (entry = { made: undefined, users: 0 }));
  entry.users += 1;
  const own = entry;
  let closed = false;
  return {
    get: () =>
      (own.made ??= loadUndici().then((undici) =>
        !httpProxy && !httpsProxy
          ? new undici.Agent({ ...common, factory: closingOnError(undici) })
          : new undici.EnvHttpProxyAgent({
              ...common,
              factory: closingOnError(undici),
              requestTls: connect,
              httpProxy: httpProxy ?? '',
              httpsProxy: httpsProxy ?? '',
              noProxy,
              clientFactory: tunnelFailing(undici.Pool),
            } as ConstructorParameters<typeof undici.EnvHttpProxyAgent>[0]),
      )),
    close: async () => {
      if (closed) return;
      closed = true;
      own.users -= 1;
      if (own.users > 0) return;
      if (SHARED.get(key) === own) SHARED.delete(key);
      if (own.made) await (await own.made).close();
    },
  };
}

/** The agents in use, by their settings, with how many clients use each. */
const SHARED = new Map<string, { made: Promise<Dispatcher> | undefined; users: number }>();
