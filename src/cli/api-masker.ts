// The masker of `enginectl api`'s call: the credentials it sends (the server's login, the
// credential fields of --data by the one name rule, a license code) masked in everything it prints, as a server may echo
// them, and registered with the CI's own masking as every command registers the secrets it learns
// (ci-masker.ts): on stderr, as stdout is the answer alone (for jq). GitHub's runner and Azure's
// agent (its script tasks) read their commands on either stream.
import type { RawRequest, ServerConfig } from '../api/index.ts';
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import { learnAnswer } from '../runner/answer-secrets.ts';
import type { Masker } from '../runner/masker.ts';
import { ciMasker } from './ci-masker.ts';
import { chooseCi, type CliIO } from './io.ts';

export function callMasker(server: ServerConfig, request: RawRequest, io: CliIO): Masker {
  const masker = ciMasker(chooseCi(io), (line) => io.stderr(`${line}\n`), {
    onWeak: (_name, why) => io.stderr(`enginectl: warning: ${why}\n`),
  });
  masker.addLogin(server.username, server.password, 'the server password');
  const walk = (value: unknown, key = ''): void => {
    if (typeof value === 'string' && CREDENTIAL_FIELDS.has(key)) masker.add(value, `--data ${key}`);
    else if (Array.isArray(value)) value.forEach((v) => walk(v));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  if (request.body && 'json' in request.body) {
    walk(request.body.json);
    // Every credential-named field of it (ipassword, apiToken), as an answer's are learnt: one rule.
    learnAnswer(masker, request.body.json, '--data');
  }
  // A license code sent as text (POST licenses) is a credential as a whole.
  else if (request.body && request.path.endsWith('/licenses')) masker.add(request.body.text, '--data');
  return masker;
}
