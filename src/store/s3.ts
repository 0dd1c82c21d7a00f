// Longer than 250 lines: one backend, its reads, writes and listing, and what each of its faults is (the check to make, a refusal of permissions), over one SDK.
// The run store in an S3 bucket (s3://BUCKET/PREFIX: AWS S3, Cloudflare R2, MinIO, Ceph RGW): a
// key is an object under the prefix; create-only is PutObject with `If-None-Match: *` (412, or 409
// for a conditional write in flight, when the key exists), the one conditional write every S3
// measured gets right. Credentials come from the AWS SDK's standard chain (keys in the
// environment, GitHub's OIDC web identity, SSO, a profile, a container or instance role), never
// from the URL. A create whose outcome is unknown (a retried PUT answered 412: its first attempt
// may have been the one that wrote; a 5xx or a cut connection after sending) is settled by reading
// the key back: our body there means this call created it.
import type { Env } from '../environment.ts';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  checkKey,
  cutAfterGrace,
  keyTooLarge,
  MAX_KEY_BYTES,
  StoreError,
  type PreparedBody,
  type RunStore,
} from './store.ts';
import { nameOfStore } from './store-name.ts';
import { parseS3Url } from './s3-url.ts';

export interface S3StoreOptions {
  /** Keys per ListObjectsV2 page (S3's limit and default: 1,000). */
  pageSize?: number;
  /** Attempts per request, the SDK's retries included (its default: 3). */
  maxAttempts?: number;
  /**
   * The run's stop (SIGTERM, SIGINT): once it is aborted, each call goes on for the URL's `?grace=`
   * (5 s by default: what the run still writes, its finish record, its lease's release), then is
   * cut, and every later call fails at once, rather than each waiting its `?timeout=`.
   */
  signal?: AbortSignal | undefined;
}

type SdkError = Error & {
  name: string;
  Code?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
};

/** What went wrong, in words that hold no credentials: the status, the error's code, the network error's code. */
function what(error: unknown): string {
  const e = error as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const code = e.Code ?? (e.name && e.name !== 'Error' ? e.name : undefined) ?? e.code;
  const network = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code;
  return (
    [status ? `HTTP ${status}` : undefined, code, network && network !== code ? network : undefined]
      .filter(Boolean)
      .join(' ') || 'an error with no code'
  );
}

const statusOf = (error: unknown): number | undefined => (error as SdkError).$metadata?.httpStatusCode;

/** The SDK had no region to sign for (none in the URL, the environment or a profile): nothing was sent. */
const noRegion = (error: unknown): boolean =>
  statusOf(error) === undefined && /^Region is missing/.test((error as Error)?.message ?? '');

export class S3Store implements RunStore {
  readonly url: string;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly where: string;
  private readonly client: S3Client;
  private readonly pageSize: number | undefined;
  private readonly maxAttempts: number;
  /** Aborted `?grace=` after the run's stop: every call's abortSignal. */
  private readonly cut: ReturnType<typeof cutAfterGrace>;

  constructor(url: string, env: Env, options: S3StoreOptions = {}) {
    const { bucket, prefix, config, where, timeoutMs, graceMs } = parseS3Url(url, env);
    this.cut = cutAfterGrace(options.signal, graceMs);
    this.url = nameOfStore(url);
    this.bucket = bucket;
    this.prefix = prefix;
    this.where = where;
    this.pageSize = options.pageSize;
    this.maxAttempts = options.maxAttempts ?? 3;
    // The SDK is bundled with enginectl: its notice that later SDK versions need Node 22 is ours
    // to act on, not a user's, so it is not printed in their logs.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    // A store that stops answering fails the request (a PUT's outcome is then settled by reading
    // the key) rather than holding the run: 10 s to connect, 60 s of silence on a socket (?timeout=).
    this.client = new S3Client({
      ...config,
      maxAttempts: this.maxAttempts,
      requestHandler: {
        connectionTimeout: Math.min(10_000, timeoutMs),
        // Both limits fail the request: the SDK's requestTimeout alone only logs a warning.
        requestTimeout: timeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: timeoutMs,
      },
    });
  }

  private failed(action: string, error: unknown): StoreError {
    if (this.cut.signal.aborted)
      return new StoreError('STORE_FAILED', `${this.url}: ${action}: ${this.cut.said()}, the store not answering`, {
        cause: error,
        hint: `what the store did not take is in the run's local journal; check ${this.where} is reachable, then resume from the store`,
      });
    // Input, not the store's failure: a retry of the same command cannot help.
    if (noRegion(error))
      return new StoreError('STORE_REFUSED', `${this.url}: no region to sign for (${action})`, {
        cause: error,
        hint: `give the bucket's region: ?region=eu-west-1 in the store URL, or AWS_REGION; nothing was sent`,
      });
    const e = error as SdkError;
    const status = statusOf(error);
    const code = e.Code ?? e.name;
    const skewed = /^(RequestTimeTooSkewed|RequestExpired)$/.test(code);
    const expired = /^(ExpiredToken|ExpiredTokenException|TokenRefreshRequired)$/.test(code);
    // Refused for the credentials' permissions: the same call is refused again (a clock or an expired token may not be).
    const permission =
      !skewed &&
      !expired &&
      (status === 403 ||
        status === 401 ||
        /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|InvalidToken/.test(code));
    let hint: string;
    if (skewed) {
      hint = `this runner's clock is more than 15 minutes from the store's: set it right (NTP; a container's clock is its host's), then resume from the store`;
    } else if (expired) {
      hint = `the credentials expired (a session token past its lifetime): give the run credentials that outlast it (a role the SDK renews: GitHub OIDC with AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE, an instance profile; not a fixed AWS_SESSION_TOKEN), then resume from the store`;
    } else if (permission) {
      hint = `check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the role) allow s3:GetObject, s3:PutObject and s3:ListBucket on ${this.bucket}/${this.prefix}*`;
    } else if (code === 'CredentialsProviderError' || /credential/i.test(code)) {
      hint =
        'no AWS credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the runner a role (GitHub OIDC with AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE, an instance profile)';
    } else if (code === 'NoSuchBucket' || status === 404) {
      hint = `check the bucket ${this.bucket} exists at ${this.where} (its region, the endpoint)`;
    } else if (status === 503 || code === 'SlowDown' || (status !== undefined && status >= 500)) {
      hint = `${this.where} is failing or throttling (after the SDK's retries): check its health, then resume from the store`;
    } else if (status === undefined) {
      hint = `check ${this.where} is reachable from this runner (its address, a proxy, the network)`;
    } else {
      hint = `check the store URL and ${this.where}`;
    }
    return new StoreError('STORE_FAILED', `${this.url}: ${action} (${what(error)})`, {
      cause: error,
      hint,
      permission,
    });
  }

  /**
   * The key's body. A body cut after its headers (a connection reset mid-body) is read again, up to
   * the store's attempts: the SDK retries a read cut before its headers, never one cut in its body,
   * which it hands over as a stream.
   */
  async get(key: string): Promise<Buffer | undefined> {
    checkKey(key);
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), {
          abortSignal: this.cut.signal,
        });
        if ((out.ContentLength ?? 0) > MAX_KEY_BYTES) {
          (out.Body as { destroy?: () => void } | undefined)?.destroy?.();
          throw keyTooLarge(this.url, key, out.ContentLength!);
        }
        try {
          return Buffer.from(await out.Body!.transformToByteArray());
        } catch (cut) {
          if (attempt < this.maxAttempts && !this.cut.signal.aborted) continue;
          throw cut;
        }
      } catch (error) {
        if (error instanceof StoreError) throw error;
        if (statusOf(error) === 404 && (error as SdkError).name !== 'NoSuchBucket') return undefined;
        throw this.failed(`cannot read ${key}`, error);
      }
    }
  }

  async create(key: string, body: Buffer): Promise<boolean> {
    checkKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, Body: body, IfNoneMatch: '*' }),
        { abortSignal: this.cut.signal },
      );
      return true;
    } catch (error) {
      // Cut after the stop's grace: whether it was written is not read back (that read would be cut too).
      if (this.cut.signal.aborted) throw this.failed(`cannot write ${key} (whether it was written is unknown)`, error);
      const status = statusOf(error);
      const attempts = (error as SdkError).$metadata?.attempts ?? 1;
      if ((status === 412 || status === 409) && attempts === 1) return false;
      // Nothing was sent: no credentials, or no endpoint or region to send to.
      if (status === undefined && (/Credentials|Region|Endpoint/i.test((error as SdkError).name) || noRegion(error)))
        throw this.failed(`cannot write ${key}`, error);
      // Refused for certain (a 4xx on the only attempt, or before anything was sent): not written.
      if (status !== undefined && status < 500 && status !== 412 && status !== 409 && attempts === 1)
        throw this.failed(`cannot write ${key}`, error);
      return this.settle(key, body, error);
    }
  }

  /** Nothing to hold: each try is a create-only PUT of the body (no cost to share before the race). */
  async prepare(key: string, body: Buffer): Promise<PreparedBody> {
    checkKey(key);
    return { create: (key) => this.create(key, body), release: async () => undefined };
  }

  /** A create whose outcome is unknown: the key holds our body (created), another (not), or nothing (failed). */
  private async settle(key: string, body: Buffer, error: unknown): Promise<boolean> {
    let found: Buffer | undefined;
    try {
      found = await this.get(key);
    } catch {
      throw this.failed(`cannot write ${key}, and cannot read it back to tell whether it was written`, error);
    }
    if (found === undefined) throw this.failed(`cannot write ${key}`, error);
    // Every body of the protocol is its writer's own but a journal's fence (empty): one found there
    // may be another runner's, so whether this write made it cannot be told (reliability.md).
    if (body.length === 0 && found.length === 0)
      throw this.failed(
        `cannot write ${key}: an empty one is there, and enginectl cannot tell whether it was this runner's: an empty body names no writer`,
        error,
      );
    return found.equals(body);
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            ContinuationToken: token,
            ...(this.pageSize ? { MaxKeys: this.pageSize } : {}),
          }),
          { abortSignal: this.cut.signal },
        );
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(this.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw this.failed(`cannot list ${prefix}`, error);
    }
    return out.sort();
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
