// The fields that hold a credential wherever they appear in the API's bodies and in enginectl's
// own targets and servers: the one list the masker masks whole, and the `api` command registers
// from a --data body.
export const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set([
  'targetAuthToken',
  'targetPassword',
  'sourceAuthToken',
  'sourcePassword',
  'token',
  'password',
]);
