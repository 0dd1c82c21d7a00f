// The JSON Schema that `enginectl schema` prints for editors, made from the pipeline's zod schema
// with each step type's inputs, and the inventory's.
import { z } from 'zod';
import { STEP_NAMES, STEP_TYPES } from '../steps/registry.ts';
import type { StepType } from '../steps/types.ts';
import { CONDITION_INPUT } from '../steps/assert.ts';
import { CREDENTIAL_OBJECTS, LIST_INPUTS, NUMBER_TEXT, SCALAR_INPUTS } from '../steps/inputs.ts';
import type { Wrap } from '../steps/types.ts';
import {
  EXPRESSION_TEXT,
  InventorySchema,
  lenient,
  MATRIX_VALUES,
  PipelineFileSchema,
  STEP_CONDITION,
  StepSchema,
} from './schema.ts';

type Json = Record<string, unknown>;

/** The formats of JSON Schema 2020-12 (a validator may check them; any other is refused by a strict one). */
const FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
]);

/** A list's element written as an expression. */
const EXPRESSION = { type: 'string', pattern: '\\$\\{\\{' };

/**
 * The inputs wrapped for the editor (an expression allowed in place of each): a list among them
 * takes an expression as any of its items, as validation does (schema.ts, lenientCheck).
 */
const WRAPPED = new WeakSet<z.ZodType>();
const editorInputs: Wrap = (schema) => {
  WRAPPED.add(schema);
  return lenient(schema);
};

/** Whether a node is the expression alternative of a value (ExprString). */
const isExpressionText = (json: unknown) => (json as Json | undefined)?.pattern === EXPRESSION_TEXT.source;

/** A list input given with a value: a list of one or more, or a string holding a value (or an expression). */
const GIVEN = { type: ['array', 'string'], minItems: 1, minLength: 1, pattern: '^$|[^\\s,;]' };

/** A target's credentials, as validation wants them (targets-check.ts): a token, or a username and a password. */
const CREDENTIALS = [{ required: ['username', 'password'] }, { required: ['token'] }];

/** A condition's text: not empty, nor an empty ${{ }} (validation: the expression ends too early). */
const CONDITION_TEXT = '^(?!\\s+$|\\s*\\$\\{\\{\\s*\\}\\}\\s*$)';

/** Rewrites a node of the schema being made in place (zod keeps the object): `next` of what it was. */
function replaceSchema(json: Json, next: (was: Json) => Json): void {
  const was = { ...json };
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, next(was));
}

/** JSON Schema of a zod schema, as editors see the file (an expression allowed for any input). */
function toJson(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io: 'input',
    // A condition input holds, in the file, its text or a literal.
    override: (ctx) => {
      const json = ctx.jsonSchema as Json;
      // zod's own formats (starts_with, …) are no JSON Schema format: a strict validator refuses the schema; the pattern says it.
      if (typeof json.format === 'string' && !FORMATS.has(json.format)) delete json.format;
      // What the validator coerces or splits, in the file: an integer as its digits, a list as one string of values (or holding expressions).
      const scalar = SCALAR_INPUTS.get(ctx.zodSchema as unknown as z.ZodType);
      if (scalar) {
        const other =
          scalar === 'number' ? { type: 'string', pattern: NUMBER_TEXT.source } : { type: ['number', 'boolean'] };
        return replaceSchema(json, (own) => ({ anyOf: [own, other] }));
      }
      // A value or its expression: the value's own schema first, so an editor tells its mistakes
      // (an enum's values, a number's minimum), not that the text is no expression.
      if (Array.isArray(json.anyOf) && json.anyOf.some(isExpressionText))
        json.anyOf = [...json.anyOf.filter((a) => !isExpressionText(a)), ...json.anyOf.filter(isExpressionText)];
      if (CREDENTIAL_OBJECTS.has(ctx.zodSchema as unknown as z.ZodType)) json.anyOf = CREDENTIALS;
      if (LIST_INPUTS.has(ctx.zodSchema as unknown as z.ZodType)) {
        return replaceSchema(json, (list) => ({
          anyOf: [
            { ...list, items: { anyOf: [list.items ?? {}, EXPRESSION] } },
            { type: 'string', description: 'values separated by commas, semicolons or newlines' },
          ],
        }));
      }
      // Another list of inputs (of objects: licenses): an item written as an expression waits to be resolved.
      if (WRAPPED.has(ctx.zodSchema as unknown as z.ZodType) && json.type === 'array' && json.items)
        return replaceSchema(json, (list) => ({ ...list, items: { anyOf: [list.items, EXPRESSION] } }));
      if (ctx.zodSchema === MATRIX_VALUES)
        return replaceSchema(json, (list) => ({
          anyOf: [
            list,
            {
              type: 'string',
              pattern: '^\\s*\\$\\{\\{\\s*vars\\.[A-Za-z_][\\w-]*\\s*\\}\\}\\s*$',
              description: 'a var holding the list: ${{ vars.NAME }}',
            },
          ],
        }));
      if (ctx.zodSchema === STEP_CONDITION)
        return replaceSchema(json, () => ({
          anyOf: [{ type: 'string', minLength: 1, pattern: CONDITION_TEXT }, { type: 'boolean' }],
        }));
      if (ctx.zodSchema !== CONDITION_INPUT) return;
      replaceSchema(json, () => ({
        anyOf: [{ type: 'string', minLength: 1, pattern: CONDITION_TEXT }, { type: ['boolean', 'number', 'null'] }],
        description: 'a condition: an expression, bare or in ${{ }}',
      }));
    },
  }) as Json;
}

/**
 * The step of one type: its `with` inputs with their descriptions (each step type's inputDocs), and the
 * rules JSON Schema can say: `with` is required when an input is, and the inputs of which one is
 * needed (update/vfs: files or directories).
 */
function stepVariant(type: StepType): Json {
  const inputs = toJson(type.inputs(editorInputs) as z.ZodType);
  delete inputs.$schema;
  const properties = (inputs.properties ?? {}) as Record<string, Json>;
  for (const [name, doc] of Object.entries(type.inputDocs))
    if (properties[name]) properties[name] = { ...properties[name], description: doc };
  const anyOf = type.anyOfInputs;
  if (anyOf) {
    const description = `${anyOf.join(' or ')}: at least one of them, with at least one value`;
    inputs.anyOf = anyOf.map((name) => ({ required: [name], properties: { [name]: { ...GIVEN, description } } }));
  }
  const required = Array.isArray(inputs.required) && inputs.required.length > 0;
  return {
    title: `${type.uses}: ${type.summary}`,
    properties: {
      with: {
        title: `inputs of ${type.uses}`,
        description: `The inputs of ${type.uses} (${type.summary}).`,
        ...inputs,
      },
    },
    ...(required || anyOf ? { required: ['with'] } : {}),
  };
}

/** The JSON Schema of pipeline files: the file schema with each step type's own inputs. */
export function pipelineJsonSchema(): Record<string, unknown> {
  const json = toJson(PipelineFileSchema);
  const props = json.properties as Record<string, Json>;
  // A step: its keys, `uses` one of the types (a wrong one is told with the list), then the
  // inputs of the type it names.
  const step = toJson(StepSchema);
  delete step.$schema;
  const stepProps = step.properties as Record<string, Json>;
  stepProps.uses = { title: 'step type', description: 'The step type: what the step calls.', enum: STEP_NAMES };
  stepProps.with = { title: 'inputs', description: "The step type's inputs (kebab-case keys).", type: 'object' };
  const steps = props.steps as Json;
  steps.items = {
    ...step,
    title: 'step',
    allOf: [...STEP_TYPES.values()].map((type) => ({
      if: { properties: { uses: { const: type.uses, description: type.summary } }, required: ['uses'] },
      then: stepVariant(type),
    })),
  };
  const titled: Record<string, string> = { servers: 'server', targets: 'target' };
  for (const [key, title] of Object.entries(titled)) {
    const entry = (props[key] as Json | undefined)?.additionalProperties as Json | undefined;
    if (entry) entry.title = title;
  }
  for (const [key, schema] of Object.entries(props)) schema.title ??= key;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'enginectl pipeline',
    description: 'A deployment pipeline run by enginectl (pipeline-format.md). Generated by `enginectl schema`.',
    ...json,
  };
}

/** The JSON Schema of inventory files (`include:`): servers, targets and vars. */
export function inventoryJsonSchema(): Record<string, unknown> {
  const json = toJson(InventorySchema);
  const props = json.properties as Record<string, Json>;
  for (const [key, title] of Object.entries({ servers: 'server', targets: 'target' })) {
    const entry = props[key]?.additionalProperties as Json | undefined;
    if (entry) entry.title = title;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'enginectl inventory',
    description:
      'Servers, targets and vars that pipelines include (include: [inventory/sites.yml]). Generated by `enginectl schema --inventory`.',
    ...json,
  };
}
