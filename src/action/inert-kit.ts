// The one way an action prints: every line it logs, every group title, annotation and failure
// message goes through neutralise() here, whoever calls it (the run log, the park lines, a lease's
// or a journal's warning, the PR comment's and the Deployment's words). Text from a server, a
// store or a pipeline file then reaches the runner's log as text, never as a workflow command on
// a line of its own (`::add-mask::`, `::stop-commands::`), an Azure or TeamCity command, or a
// terminal escape. @actions/core escapes only line breaks in an annotation's data and nothing in
// a plain line. Masking stays the caller's (before this: a secret is masked as the text holds it).
import { neutralise } from '../text/neutralise.ts';
import type { AnnotationProps, Toolkit } from './toolkit.ts';

/** An annotation's title made inert; its place (file, line, column) is ours and kept as it is. */
function inertProps(props: AnnotationProps | undefined): AnnotationProps | undefined {
  return props?.title === undefined ? props : { ...props, title: neutralise(props.title) };
}

export function inertKit(kit: Toolkit): Toolkit {
  return {
    ...kit,
    info: (line) => kit.info(neutralise(line)),
    startGroup: (title) => kit.startGroup(neutralise(title)),
    error: (message, props) => kit.error(neutralise(message), inertProps(props)),
    warning: (message, props) => kit.warning(neutralise(message), inertProps(props)),
    setFailed: (message) => kit.setFailed(neutralise(message)),
  };
}
