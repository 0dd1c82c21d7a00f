// The fault rules in force (one set per emulator, or shared by the sites of one): added, listed,
// cleared, and taken by the request they match, counting down their `times`.
import { matches, type FaultRule } from './rule.ts';

export class FaultSet {
  private rules: FaultRule[] = [];

  add(rule: FaultRule): this {
    this.rules.push({ ...rule });
    return this;
  }

  clear(): void {
    this.rules = [];
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** The first rule for this request, counting one use of it. */
  take(method: string, path: string, site?: string): FaultRule | undefined {
    const rule = this.rules.find((r) => matches(r, method, path, site) && (r.times === undefined || r.times > 0));
    if (rule?.times !== undefined) rule.times -= 1;
    return rule;
  }
}
