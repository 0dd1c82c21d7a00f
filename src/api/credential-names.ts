// The one rule for a name that says its value is a credential, wherever enginectl reads names: an
// entity's fields (the snapshot a write keeps for verify and plan --live's preview withhold them:
// steps/entity-withheld.ts), the fields of any answer a step reads (learnt as secrets and written
// masked: runner/answer-secrets.ts) and a pipeline's keys (pipeline/credential-keys.ts). A name
// holds a credential when it ends in a credential word: read in lower case with `_`, `-` and `.`
// taken out, it ends in password, passwd, passphrase, passcode, pwd, secret, token, credential,
// apikey, accesskey, secretkey, privatekey, auth or authorization, plural or not, and maybe followed
// by `hash` or `digest` (a digest of a password is an offline check of it). So the API's
// one-letter `i` prefix and its run-together names are read as they are meant (`ipassword`,
// `iapitoken`), and camelCase, snake_case and kebab-case names too (`db_password`, `apiToken`,
// `clientSecret`, `x-api-key`); a name that holds a credential word in the middle and means
// something else is not a credential (`ilastpasswdchg`, a date; `passwordMaxAgeDays`, a number;
// `tokenExpiry`).

/** The words a credential's name ends in (lower case, without `_`, `-` and `.`). */
export const CREDENTIAL_WORDS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pwd',
  'secret',
  'token',
  'credential',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'auth',
  'authorization',
];

const ENDS = new RegExp(`(?:${CREDENTIAL_WORDS.join('|')})s?(?:hash|digest)?$`);

/** Names read so far, up to READ_NAMES: an answer's keys repeat for every entity and site (4-6x faster a name). */
const read = new Map<string, boolean>();
const READ_NAMES = 4096;

/** Whether a field, key or input named `name` holds a credential (see above). */
export function credentialNamed(name: string): boolean {
  let named = read.get(name);
  if (named === undefined) {
    named = ENDS.test(name.toLowerCase().replace(/[-_.]/g, ''));
    if (read.size < READ_NAMES) read.set(name, named);
  }
  return named;
}
