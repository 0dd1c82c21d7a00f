// The expression AST. `pos` is the offset of the node in the expression text.
export type Node =
  | { kind: 'literal'; value: null | boolean | number | string; pos: number }
  | { kind: 'context'; name: string; pos: number }
  | { kind: 'member'; object: Node; property: string; pos: number }
  | { kind: 'index'; object: Node; index: Node; pos: number }
  | { kind: 'call'; name: string; args: Node[]; pos: number }
  | { kind: 'not'; operand: Node; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node; pos: number };

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** The nodes a node is made of, in the order they are written: the one walk every reading of the tree builds on. */
export function children(node: Node): readonly Node[] {
  switch (node.kind) {
    case 'member':
      return [node.object];
    case 'index':
      return [node.object, node.index];
    case 'call':
      return node.args;
    case 'not':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    default:
      return [];
  }
}

/** A mistake in an expression, at `offset` within its text. */
export class ExprError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}
