// Jenkins: plain framed sections; JUnit and exit codes do the rest.
import { neutralise } from '../../text/neutralise.ts';
import { NO_CONVENTIONS, type CiSystem } from '../system.ts';

export const jenkins: CiSystem = {
  ...NO_CONVENTIONS,
  name: 'jenkins',
  detect: (env) => Boolean(env.JENKINS_URL || env.JENKINS_HOME),
  sectionStart: (_k, title) => `---- ${neutralise(title)} ----`,
};
