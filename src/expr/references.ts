// The context references of an expression (steps.build.outputs.x -> ['steps', 'build', 'outputs', 'x']),
// for validation before anything runs.
import { children, type Node } from './ast.ts';

export interface Reference {
  path: string[];
  /** Offset of the context name in the expression. */
  pos: number;
  /** A computed index ended the path: what follows it is not known before run time. */
  open?: boolean;
}

/** The access chain of a node, when it is a context followed by names or literal indexes. */
function chain(node: Node): Reference | undefined {
  if (node.kind === 'context') return { path: [node.name], pos: node.pos };
  if (node.kind === 'member') {
    const base = chain(node.object);
    if (!base || base.open) return base;
    return { path: [...base.path, node.property], pos: base.pos };
  }
  if (node.kind === 'index') {
    const base = chain(node.object);
    if (!base || base.open) return base;
    if (
      node.index.kind === 'literal' &&
      (typeof node.index.value === 'string' || typeof node.index.value === 'number')
    ) {
      return { path: [...base.path, String(node.index.value)], pos: base.pos };
    }
    return { ...base, open: true };
  }
  return undefined;
}

export function references(node: Node, out: Reference[] = []): Reference[] {
  const own = chain(node);
  if (own) {
    out.push(own);
    // References inside computed indexes along the chain: targets[matrix.target].database
    for (let n: Node = node; n.kind === 'member' || n.kind === 'index'; n = n.object) {
      if (n.kind === 'index' && n.index.kind !== 'literal') references(n.index, out);
    }
    return out;
  }
  for (const child of children(node)) references(child, out);
  return out;
}

/** Whether the expression calls one of the status functions (so `if` needs no success() prefix). */
export function callsStatus(node: Node): boolean {
  if (node.kind === 'call' && ['success', 'failure', 'always', 'cancelled'].includes(node.name)) return true;
  return children(node).some(callsStatus);
}
