// The one rule for a name that says its value is a credential (api/credential-names.ts): the
// credential word at the name's end, read in lower case without `_`, `-` and `.`, so the API's
// `i`-prefixed run-together names and camelCase, snake_case and kebab-case ones read alike, and a
// name holding such a word only in the middle is something else (a date, a number, an expiry).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CREDENTIAL_FIELDS } from '../../src/api/credentials.ts';
import { credentialNamed } from '../../src/api/credential-names.ts';

const CREDENTIALS = [
  'ipassword',
  'password',
  'Password',
  'PASSWORD',
  'db_password',
  'db-password',
  'passwd',
  'ipasswd',
  'passphrase',
  'passcode',
  'pwd',
  'apiToken',
  'iapitoken',
  'token',
  'refresh_token',
  'clientSecret',
  'client_secret',
  'secret',
  'credentials',
  'accessKey',
  'access_key',
  'x-api-key',
  'apiKey',
  'secretKey',
  'private_key',
  'auth',
  'oauth',
  'authorization',
  'Authorization',
  'passwordHash',
  'ipasswordhash',
  'tokenDigest',
];

const NOT_CREDENTIALS = [
  'ilastpasswdchg',
  'passwordMaxAgeDays',
  'lastPasswordChange',
  'tokenExpiry',
  'secretName',
  'author',
  'authType',
  'ikey',
  'key',
  'code',
  'iproductcode',
  'licenser-key',
  'iname',
  'passage',
  '',
];

test('a name that ends in a credential word holds a credential; one that holds it only in the middle does not', () => {
  for (const name of CREDENTIALS) assert.equal(credentialNamed(name), true, name);
  for (const name of NOT_CREDENTIALS) assert.equal(credentialNamed(name), false, name);
});

test('every credential field the masker masks whole is a credential by the rule', () => {
  for (const name of CREDENTIAL_FIELDS) assert.equal(credentialNamed(name), true, name);
});
