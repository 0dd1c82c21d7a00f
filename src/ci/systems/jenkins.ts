// Jenkins: plain framed sections; JUnit and exit codes do the rest.
import { neutralise } from '../../text/neutralise.ts';
import { NO_CONVENTIONS, type CiSystem } from '../system.ts';

export const jenkins: CiSystem = {
  ...NO_CONVENTIONS,
  name: 'jenkins',
  detect: (env) => Boolean(env.JENKINS_URL || env.JENKINS_HOME),
  actor: (env) => env.BUILD_USER_ID,
  runUrl: (env) => env.BUILD_URL,
  sectionStart: (_k, title) => `---- ${neutralise(title)} ----`,
};
