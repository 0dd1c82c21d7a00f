// GitHub shows at most 10 error and 10 warning annotations of a step (and 50 of a job), and drops
// the rest unsaid. The action's toolkit passes the first of each kind on and counts the others,
// which end the step as one annotation saying how many more there were and where they are: never
// more than GitHub shows, none lost without a word. setFailed is an error annotation too, so a
// slot is kept for it. A warning not annotated is still a line of the log; an error not annotated
// is one the log or the summary holds already (a failed step's lines, an invalid pipeline's
// findings, which say how many there are).
import type { AnnotationProps, Toolkit } from './toolkit.ts';

/** Of each kind, the annotations GitHub shows of a step. */
export const ANNOTATIONS_A_STEP = 10;

type Kind = 'error' | 'warning';

export interface AnnotationBudget {
  kit: Toolkit;
  /** The annotations held back, counted in one of their kind: called once, as the step ends. */
  end(): void;
}

export function annotationBudget(kit: Toolkit): AnnotationBudget {
  // Of each kind, one slot for the count; of errors, one more for setFailed.
  const passed: Record<Kind, number> = { error: 0, warning: 0 };
  const held: Record<Kind, { message: string; props?: AnnotationProps | undefined }[]> = { error: [], warning: [] };
  const slots: Record<Kind, number> = { error: ANNOTATIONS_A_STEP - 2, warning: ANNOTATIONS_A_STEP - 1 };
  const annotate = (kind: Kind) => (message: string, props?: AnnotationProps) => {
    if (passed[kind] < slots[kind]) {
      passed[kind]++;
      kit[kind](message, props);
      return;
    }
    held[kind].push({ message, props });
    if (kind === 'warning') kit.info(`warning: ${props?.title ? `${props.title}: ` : ''}${message}`);
  };
  return {
    kit: { ...kit, error: annotate('error'), warning: annotate('warning') },
    end() {
      for (const kind of ['error', 'warning'] as const) {
        const rest = held[kind];
        if (rest.length === 1) kit[kind](rest[0]!.message, rest[0]!.props);
        else if (rest.length > 1)
          kit[kind](
            `${rest.length} more ${kind}s are not annotated (GitHub shows ${ANNOTATIONS_A_STEP} of a step): ${kind === 'error' ? 'see the log and the job summary' : 'each is in the log'}`,
            { title: 'enginectl' },
          );
        rest.length = 0;
      }
    },
  };
}
