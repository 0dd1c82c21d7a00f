// The action's toolkit within GitHub's annotations of a step (ci/annotation-budget.ts): the first of
// each kind passed on, the others counted in one as the step ends. A warning held back is still a
// line of the log; an error held back is one the log or the summary holds already (a failed
// step's lines, an invalid pipeline's findings, which say how many there are). The kit it is given
// neutralises every line it prints (inert-kit.ts): run-action.ts wraps it so.
import { AnnotationBudget, heldBackMessage } from '../ci/annotation-budget.ts';
import type { AnnotationProps, Toolkit } from './toolkit.ts';

export interface ToolkitBudget {
  kit: Toolkit;
  /** The annotations held back, counted in one of their kind: called once, as the step ends. */
  end(): void;
}

export function annotationBudget(kit: Toolkit): ToolkitBudget {
  const budget = new AnnotationBudget<{ message: string; props?: AnnotationProps | undefined }>();
  const annotate = (kind: 'error' | 'warning') => (message: string, props?: AnnotationProps) => {
    if (budget.offer(kind, { message, props })) kit[kind](message, props);
    // A line of the log, not an annotation's message: the inert kit makes it inert as a line.
    else if (kind === 'warning') kit.info(`warning: ${props?.title ? `${props.title}: ` : ''}${message}`);
  };
  return {
    kit: { ...kit, error: annotate('error'), warning: annotate('warning') },
    end() {
      for (const held of budget.end())
        if (held.only) kit[held.kind](held.only.message, held.only.props);
        else kit[held.kind](heldBackMessage(held.kind, held.count), { title: 'enginectl' });
    },
  };
}
