// A store by its URL: s3:// and file:// open their stores; anything else, a URL holding
// credentials, or an S3 option the store does not know is refused (STORE_REFUSED, exit 2) naming
// the URL without its credentials. The S3 client's settings come from the URL and the environment
// (endpoint, path-style, region, keys), the SDK's chain when no keys are given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';
import { openStore } from '../../src/store/open.ts';
import { parseS3Url } from '../../src/store/s3-url.ts';
import { StoreError } from '../../src/store/store.ts';

function refused(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.code, 'STORE_REFUSED');
    assert.equal(error.exitCode, 2);
    return error;
  }
  throw new Error('expected the store to be refused');
}

test('openStore: s3:// opens an S3 store, file:/// a directory store, each named by its URL', () => {
  const s3 = openStore('s3://runs-bucket/team-a', { AWS_REGION: 'eu-west-1' });
  assert.ok(!(s3 instanceof DirectoryStore), 'the S3 store (its SDK loaded at first use)');
  assert.equal(s3.url, 's3://runs-bucket/team-a');
  const dir = openStore('file:///srv/enginectl-runs', {});
  assert.ok(dir instanceof DirectoryStore);
  assert.equal(dir.url, 'file:///srv/enginectl-runs');
});

test('openStore refuses any other scheme with STORE_REFUSED, exit 2, naming the URL (its password hidden) and the two schemes', () => {
  for (const url of ['https://ops:hunter2@store.example.com/runs', 'gs://bucket/runs', '/srv/runs', 'azblob://runs']) {
    const error = refused(() => openStore(url, {}));
    assert.match(error.message, /is not a run store: a store is s3:\/\/BUCKET\/PREFIX or file:\/\/\/PATH/);
    assert.ok(!error.describe().includes('hunter2'), error.message);
  }
  assert.match(
    refused(() => openStore('https://ops:hunter2@store.example.com/runs', {})).message,
    /^https:\/\/\*\*\*@store\.example\.com\/runs /,
  );
  assert.match(
    refused(() => openStore('file://fileserver/runs', {})).message,
    /file:\/\/fileserver\/runs is not a directory's file URL/,
  );
});

test('an s3:// URL holding credentials, a bad bucket, an unknown option or a bad endpoint is refused, never echoing a secret', () => {
  const withKeys = refused(() => openStore('s3://AKIAEXAMPLE:wJalrXUtnFEMI@runs-bucket/team-a', {}));
  assert.match(withKeys.message, /^s3:\/\/runs-bucket\/team-a: the store URL holds credentials/);
  assert.ok(!withKeys.describe().includes('wJalrXUtnFEMI') && !withKeys.describe().includes('AKIAEXAMPLE'));
  assert.match(refused(() => openStore('s3://Runs_Bucket/x', {})).message, /is not a bucket name/);
  assert.match(refused(() => openStore('s3://runs-bucket/x?endpont=http://h', {})).message, /unknown option "endpont"/);
  assert.match(
    refused(() => openStore('s3://runs-bucket/x?endpoint=ftp://h', {})).message,
    /the endpoint is not an http\(s\) URL without credentials/,
  );
  assert.match(
    refused(() => openStore('s3://runs-bucket/x?endpoint=http://u:secret@h', {})).message,
    /without credentials/,
  );
  assert.match(
    refused(() => openStore('s3://runs-bucket/x?path-style=yes', {})).message,
    /path-style is true or false/,
  );
  assert.match(
    refused(() => openStore('s3://runs-bucket/a%2F..%2Fb', {})).message,
    /the prefix "a\/..\/b" is not a path of plain segments/,
  );
});

test('S3 settings: the endpoint from the URL, else AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL; a custom endpoint is path-style unless told; keys from the environment, else the SDK chain', () => {
  const fromUrl = parseS3Url('s3://runs-bucket/team-a/prod?endpoint=http://127.0.0.1:7480&region=auto', {
    AWS_ENDPOINT_URL_S3: 'https://s3.other',
    AWS_REGION: 'eu-west-1',
  });
  assert.equal(fromUrl.bucket, 'runs-bucket');
  assert.equal(fromUrl.prefix, 'team-a/prod/');
  assert.equal(fromUrl.config.endpoint, 'http://127.0.0.1:7480');
  assert.equal(fromUrl.config.region, 'auto');
  assert.equal(fromUrl.config.forcePathStyle, true);
  assert.equal(
    fromUrl.config.credentials,
    undefined,
    'no keys given: the SDK chain (web identity, SSO, profile, instance role)',
  );
  const r2 = parseS3Url('s3://runs-bucket?path-style=false', {
    AWS_ENDPOINT_URL_S3: 'https://acct.r2.cloudflarestorage.com',
    AWS_ENDPOINT_URL: 'https://ignored',
    AWS_ACCESS_KEY_ID: 'AKIAR2',
    AWS_SECRET_ACCESS_KEY: 's',
    AWS_SESSION_TOKEN: 't',
  });
  assert.equal(r2.prefix, '');
  assert.equal(r2.config.endpoint, 'https://acct.r2.cloudflarestorage.com');
  assert.equal(r2.config.forcePathStyle, false);
  assert.equal(r2.config.region, 'us-east-1');
  assert.deepEqual(r2.config.credentials, { accessKeyId: 'AKIAR2', secretAccessKey: 's', sessionToken: 't' });
  assert.equal(
    parseS3Url('s3://runs-bucket/x', { AWS_ENDPOINT_URL: 'http://minio:9000' }).config.endpoint,
    'http://minio:9000',
  );
  const aws = parseS3Url('s3://runs-bucket/x/', { AWS_DEFAULT_REGION: 'us-west-2' });
  assert.equal(aws.config.endpoint, undefined);
  assert.equal(aws.config.forcePathStyle, false);
  assert.equal(aws.config.region, 'us-west-2');
  assert.equal(aws.prefix, 'x/');
});

test("a file:// URL takes ?grace= (as an S3 store's); any other option, or a grace that is not a duration, is refused (before, every option was dropped unread)", () => {
  assert.ok(openStore('file:///tmp/runs?grace=2s', {}) instanceof DirectoryStore);
  for (const [url, said] of [
    ['file:///tmp/runs?timeout=30s', /unknown option "timeout"/],
    // A value that is no duration could be a secret pasted in the wrong place: not shown.
    ['file:///tmp/runs?grace=soon', /grace is a duration, not what was given \(not shown\)/],
  ] as const) {
    assert.throws(
      () => openStore(url, {}),
      (e: unknown) => e instanceof StoreError && e.code === 'STORE_REFUSED' && e.exitCode === 2 && said.test(e.message),
      url,
    );
  }
});
