// The masker of a command that learns secrets (a pipeline's, a login, a webhook's URL): each form
// of each secret registered with the CI system's own masking (`::add-mask::`, `##vso[task.setsecret]`)
// as it is learnt, before any line that could show it. enginectl masks what it prints itself; the
// runner masks a later step's output, and only in the forms it is given beyond those it derives
// (hex, base64's other spellings, the Basic user:password pair). Every command that learns a
// secret registers it, whether it sends it (run, plan --live, verify, api) or only masks with it.
import type { CiSystem } from '../ci/system.ts';
import { Masker, type MaskerHooks } from '../runner/masker.ts';

/**
 * The command's one masker: each form of each secret it learns registered with `ci` (its line printed
 * by `print`, without its line break) once, as the masker tells it, before any line could show it.
 * A command makes one and gives it to each part that learns its secrets (a plan, the preflight of
 * run --plan, the run), and to the masking of the error it may end with (CliIO.maskerMade).
 */
export function ciMasker(ci: CiSystem, print: (line: string) => void, hooks: Omit<MaskerHooks, 'onSecret'> = {}) {
  return new Masker({
    ...hooks,
    onSecret: (form) => {
      const line = ci.mask(form);
      if (line !== undefined) print(line);
    },
  });
}
