// An s3:// run store URL read and checked (bucket, prefix, endpoint, path-style, region, and the
// keys of the environment), without loading the AWS SDK: a URL is refused as it is given, while
// the SDK itself is loaded only by a run that uses the store (open.ts).
import type { Env } from '../environment.ts';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { MAX_TIMER_MS, parseDuration, TIMER_LIMIT } from '../duration.ts';
import { checkKey, nameOfStore, StoreError } from './store.ts';
import { givenDuration, plainEndpoint, REGION, shownOption } from './store-name.ts';

const isKey = (path: string): boolean => {
  try {
    checkKey(path);
    return true;
  } catch {
    return false;
  }
};
const QUERY = ['endpoint', 'path-style', 'region', 'timeout', 'grace'];
/** How long a request may wait on a silent store before it fails (`?timeout=`): 60 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 60_000;
/** How long the store's calls go on once the run was stopped (SIGTERM, SIGINT) before they are cut (`?grace=`): 5 s. */
export const DEFAULT_STORE_GRACE_MS = 5_000;

/** The parts of an s3:// URL: bucket, key prefix ('' or ending in '/'), and the client's options. */
export function parseS3Url(
  url: string,
  env: Env,
): { bucket: string; prefix: string; config: S3ClientConfig; where: string; timeoutMs: number; graceMs: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError('STORE_REFUSED', `not an s3:// URL: ${JSON.stringify(nameOfStore(url))}`, {
      hint: 'write it as s3://BUCKET/PREFIX',
    });
  }
  // Without its host (s3:/user:pw@bucket, one slash too few) the user part is in the path: hidden too.
  const named = nameOfStore(`s3://${parsed.host}${parsed.pathname}`);
  if (parsed.username || parsed.password) {
    throw new StoreError('STORE_REFUSED', `${named}: the store URL holds credentials`, {
      hint: 'remove them from the URL: credentials come from the AWS SDK chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a web identity role, an instance role)',
    });
  }
  const bucket = parsed.host;
  if (!/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(bucket))
    throw new StoreError('STORE_REFUSED', `${named}: ${JSON.stringify(bucket)} is not a bucket name`, {
      hint: 'write it as s3://BUCKET/PREFIX, BUCKET in lower case (3 to 63 letters, digits, dots and hyphens)',
    });
  let decoded: string;
  try {
    decoded = decodeURIComponent(parsed.pathname);
  } catch {
    throw new StoreError('STORE_REFUSED', `${named}: the prefix is not a %-escaped UTF-8 path`, {
      hint: 'write it as s3://BUCKET/PREFIX, escaping a character of the prefix as the %-escapes of its UTF-8 bytes',
    });
  }
  const path = decoded.replace(/^\/+|\/+$/g, '');
  if (path !== '' && !isKey(path))
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: the prefix ${JSON.stringify(path)} is not a path of plain segments`,
      { hint: 'write the prefix as segments of letters, digits, dots, dashes and underscores, without .. or //' },
    );
  for (const name of parsed.searchParams.keys()) {
    if (!QUERY.includes(name))
      throw new StoreError('STORE_REFUSED', `${named}: unknown option ${shownOption(name)} in the store URL`, {
        hint: `the options are ${QUERY.join(', ')}`,
      });
  }
  const endpoint = parsed.searchParams.get('endpoint') ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  // A query or fragment in it could hold a secret, and the SDK takes neither: refused, not shown.
  if (endpoint !== undefined && !plainEndpoint(endpoint))
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: the endpoint is not an http(s) URL without credentials, query or fragment (it is not shown)`,
      { hint: 'give it as ?endpoint=https://HOST:PORT (or AWS_ENDPOINT_URL_S3)' },
    );
  // A value an option does not take is not shown: it could be a secret pasted in the wrong place.
  const pathStyle = parsed.searchParams.get('path-style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    throw new StoreError('STORE_REFUSED', `${named}: path-style is true or false (the value given is not shown)`);
  // A custom endpoint (MinIO, Ceph, R2) is addressed path-style unless told otherwise: virtual
  // hosts need a wildcard DNS name such servers rarely have.
  const forcePathStyle = pathStyle === null ? endpoint !== undefined : pathStyle === 'true';
  const timeoutText = parsed.searchParams.get('timeout');
  const timeoutMs = timeoutText === null ? DEFAULT_STORE_TIMEOUT_MS : parseDuration(timeoutText);
  if (timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS)
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: timeout is a duration${timeoutMs === undefined || timeoutMs <= 0 ? '' : ` ${TIMER_LIMIT}`}, not ${givenDuration(timeoutText, timeoutMs)}`,
      { hint: 'give it as ?timeout=30s (how long a request may wait on a silent store; 60s by default)' },
    );
  const graceText = parsed.searchParams.get('grace');
  const graceMs = graceText === null ? DEFAULT_STORE_GRACE_MS : parseDuration(graceText);
  if (graceMs === undefined || graceMs < 0 || graceMs > MAX_TIMER_MS)
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: grace is a duration${graceMs === undefined || graceMs < 0 ? '' : ` ${TIMER_LIMIT}`}, not ${givenDuration(graceText, graceMs)}`,
      {
        hint: "give it as ?grace=5s (how long the store's calls go on once the run was stopped, SIGTERM or SIGINT, before they are cut; 5s by default)",
      },
    );
  const regionGiven = parsed.searchParams.get('region');
  if (regionGiven !== null && !REGION.test(regionGiven))
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: region is a region's name (letters, digits, - and _; the value given is not shown)`,
      { hint: 'give it as ?region=eu-west-1 (or AWS_REGION)' },
    );
  const region =
    regionGiven ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? (endpoint !== undefined ? 'us-east-1' : undefined);
  const config: S3ClientConfig = {
    forcePathStyle,
    followRegionRedirects: true,
    // Checksums only where S3 requires them: S3-compatible servers (Ceph 16, older MinIO and R2)
    // refuse the SDK's newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(region !== undefined ? { region } : {}),
  };
  // Keys in the given environment come first, as the SDK's own chain takes them from its process;
  // otherwise the SDK's chain (web identity token file, SSO, profiles, container and instance roles).
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    config.credentials = {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  }
  return {
    bucket,
    prefix: path === '' ? '' : `${path}/`,
    config,
    where: endpoint === undefined ? 'AWS S3' : `the endpoint ${endpoint}`,
    timeoutMs,
    graceMs,
  };
}
