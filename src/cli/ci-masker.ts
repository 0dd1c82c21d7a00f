// The masker of a command that learns secrets (a pipeline's, a login, a webhook's URL): each form
// of each secret registered with the CI system's own masking (`::add-mask::`, `##vso[task.setsecret]`)
// as it is learnt, before any line that could show it. enginectl masks what it prints itself; the
// runner masks a later step's output, and only in the forms it is given beyond those it derives
// (hex, base64's other spellings, the Basic user:password pair). Every command that learns a
// secret registers it, whether it sends it (run, plan --live, verify, api) or only masks with it.
import type { CiSystem } from '../ci/system.ts';
import { Masker, type MaskerHooks } from '../runner/masker.ts';

/**
 * The hook that registers each form with `ci`, printing its line with `print`: once, whichever of
 * the command's maskers learnt it first (run --plan's preflight, then the run's own).
 */
export function ciRegistration(ci: CiSystem, print: (line: string) => void): (form: string) => void {
  const told = new Set<string>();
  return (form) => {
    if (told.has(form)) return;
    told.add(form);
    const line = ci.mask(form);
    if (line !== undefined) print(line);
  };
}

/** A masker whose every form is registered with `ci` (printed by `print`, a line without its line break). */
export function ciMasker(ci: CiSystem, print: (line: string) => void, hooks: Omit<MaskerHooks, 'onSecret'> = {}) {
  return new Masker({ ...hooks, onSecret: ciRegistration(ci, print) });
}
