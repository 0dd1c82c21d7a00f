// A project's repository for a CI system run locally (gitlab-ci-local reads the commit, its branch
// and remote): `dir` made a git repository of one commit on `main`.
import { execFileSync } from 'node:child_process';

/** git in `dir` as a CI user, quiet. */
export const gitIn =
  (dir: string) =>
  (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  };

/** Every file of `dir` committed on branch main of a new repository; git in it, for more. */
export function committedRepo(dir: string, message = 'release'): (...args: string[]) => void {
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', message);
  return git;
}
