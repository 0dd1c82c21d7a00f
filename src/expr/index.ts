// The expression language of pipeline files: ${{ ... }}.
export { ExprError, type Node } from './ast.ts';
export { parseExpression, CONTEXTS, FUNCTIONS } from './parser.ts';
export { evaluate, type EvalScope } from './evaluate.ts';
export { scanTemplate, type Segment, type ExprSegment } from './template.ts';
export {
  Template,
  Expression,
  compileString,
  compileValue,
  compileCondition,
  conditionText,
  resolveDeep,
  isStatic,
  compiledReferences,
  learnSecretsAhead,
} from './compiled.ts';
export { references, callsStatus, type Reference } from './references.ts';
export { truthy, looseEquals, toText } from './values.ts';
export { Placeholder } from './placeholder.ts';
export { refsReadSecret, withSecretSink, type SecretSink } from './secret-sink.ts';
