// The reason phrase of an HTTP status, as the wire and a gateway's page say it. node:http is read
// when a fault answers, not when the list of faults is loaded: the CLI's help and the single
// executable's start-up snapshot load that list, and node:http does not belong in a snapshot.
export function statusText(status: number): string | undefined {
  return process.getBuiltinModule('node:http').STATUS_CODES[status];
}
