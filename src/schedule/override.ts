// Who may start a write that does not fit its window (override-freeze:): each rule an actor's
// name, or the facts of the CI's identity that must all match: actor, repository, ref,
// environment, workflow, as the CI's environment says them (GitHub's context fields its OIDC
// token mirrors as claims, GitLab's, a Jenkins user). They are matched, not verified: a token's
// signature is not checked offline, so a rule is only as strong as the CI's own variables.
export const OVERRIDE_FACTS = ['actor', 'repository', 'ref', 'environment', 'workflow'] as const;
export type OverrideFact = (typeof OVERRIDE_FACTS)[number];
export type OverrideRule = string | Partial<Record<OverrideFact, string>>;

/** Who runs the job, as a rule reads it. */
export interface OverrideIdentity {
  actor: string;
  claims: Partial<Record<Exclude<OverrideFact, 'actor'>, string>>;
}

const factsOf = (rule: OverrideRule): Partial<Record<OverrideFact, string>> =>
  typeof rule === 'string' ? { actor: rule } : rule;

/** A rule for a person: `alice`, or `actor alice, ref refs/heads/main`. */
export function ruleText(rule: OverrideRule): string {
  if (typeof rule === 'string') return rule;
  return OVERRIDE_FACTS.flatMap((k) => (rule[k] === undefined ? [] : [`${k} ${rule[k]}`])).join(', ');
}

/** The rules as a list shows them: a name as it is, a rule of facts in braces (`alice, { actor bob, ref refs/heads/main }`). */
export function rulesText(rules: readonly OverrideRule[], separator = ', '): string {
  return rules.map((r) => (typeof r === 'string' ? r : `{ ${ruleText(r)} }`)).join(separator);
}

/** The first rule the identity meets (every fact it names equal), or undefined; a rule naming nothing meets none. */
export function matchingRule(rules: readonly OverrideRule[], who: OverrideIdentity): OverrideRule | undefined {
  return rules.find((rule) => {
    const facts = Object.entries(factsOf(rule)) as [OverrideFact, string][];
    return facts.length > 0 && facts.every(([k, v]) => (k === 'actor' ? who.actor : who.claims[k]) === v);
  });
}

/** The identity's facts a refusal names: `alice (repository acme/ops, ref refs/heads/main)`. */
export function identityText(who: OverrideIdentity): string {
  const claims = Object.entries(who.claims).map(([k, v]) => `${k} ${v}`);
  return `${who.actor}${claims.length ? ` (${claims.join(', ')})` : ''}`;
}
