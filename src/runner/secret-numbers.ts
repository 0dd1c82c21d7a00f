// A secret that is a number (a numeric password, a one-time passcode an answer gave: `482913`)
// reaches the records as a typed number once an expression passes it on whole
// (`fields: { ipin: "${{ steps.get.outputs.entity.ipin }}" }` resolves to the number): text masking
// never sees it. A typed number equal to such a secret is masked in every value the run keeps
// (Masker.maskValue: a step's inputs and outputs, a call's body in the journal, an answer), as `***`,
// as the same secret is in text; so is its negative (-482913), whose text holds the secret (`-***`).
// The masker cannot tell where a number came from, so it masks by value, and only a number long
// enough not to be an ordinary value: a key, a version, a class, a count of an entity's fields is
// mostly shorter (`3`, `1001`), and masked it would hide what a reader and verify need (verify
// compares versions), for a secret that short is no secret to hide in a typed field. The bound is the one an answer's value is learnt from
// (runner/answer-secrets.ts ANSWER_MIN_LENGTH: the 6 digits of a passcode). A shorter number, or a
// literal (`true`, `null`), is masked in text only, and a warning names it (Masker.add).

/** The fewest characters of a secret that is a number for a typed number equal to it to be masked (`482913`). */
export const NUMBER_MIN_LENGTH = 6;

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The number `secret` reads as, as JSON writes it (`String(482913)`: ` 482913 ` and `482913.0` are
 * 482913), when it is one written so (digits, a sign, a decimal point) and so written it is
 * NUMBER_MIN_LENGTH long or longer (`000001` is 1, no secret); otherwise undefined.
 */
export function secretNumber(secret: string): string | undefined {
  const text = secret.trim();
  if (!NUMBER.test(text)) return undefined;
  const n = String(Number(text));
  return n.length >= NUMBER_MIN_LENGTH ? n : undefined;
}

/** Whether a secret reads as a number or a literal of JSON (`1001`, `true`, `null`): masked in text, and typed only when secretNumber says. */
export const readsAsLiteral = (secret: string): boolean => /^(true|false|null|-?\d+(\.\d+)?)$/i.test(secret.trim());
