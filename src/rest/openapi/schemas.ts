// JSON Schemas (OpenAPI 3.1) of GraphQL types: arguments as REST params read them, and REST
// entities exactly as the facade answers them, i.e. the fields of the route's operation selection
// (operations.ts: SOFA's depth) rather than every field of the type.
import {
  getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  Kind, type GraphQLInputType, type GraphQLObjectType, type GraphQLOutputType, type SelectionSetNode,
} from "graphql";

export type JsonSchema = Record<string, unknown>;

/** Scalars as JSON carries them (DateTime and Date as GitLab renders them, JSON as anything). */
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  String: { type: "string" },
  ID: { type: "string" },
  DateTime: { type: "string", format: "date-time" },
  Date: { type: "string", format: "date" },
  JSON: {},
  Upload: { type: "string", format: "binary" },
};

function scalarSchema(name: string): JsonSchema {
  const schema = SCALARS[name];
  if (!schema) throw new Error(`openapi: no JSON Schema for the scalar ${name}`);
  return { ...schema };
}

/** `null` allowed as well: 3.1's type arrays, or anyOf for a `$ref` or an untyped schema. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") {
    const { enum: values, ...rest } = schema;
    return { ...rest, type: [schema.type, "null"], ...(values ? { enum: [...(values as unknown[]), null] } : {}) };
  }
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: "null" }] };
}

/** An argument's or input field's schema (lists as arrays, input objects as objects). */
export function inputSchema(type: GraphQLInputType): JsonSchema {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return { type: "array", items: inputSchema(inner.ofType) };
  if (isEnumType(inner)) return { type: "string", enum: inner.getValues().map((value) => value.name) };
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    const required = fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => field.name);
    return {
      type: "object",
      properties: Object.fromEntries(fields.map((field) => [field.name, withDescription(inputSchema(field.type), field.description)])),
      ...(required.length ? { required } : {}),
    };
  }
  if (isScalarType(inner)) return scalarSchema(inner.name);
  throw new Error(`openapi: unsupported input type ${String(type)}`);
}

export function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/**
 * Entity schemas shared as components: one per object type and selection; a type selected
 * differently in two places (a nested user with fewer fields) gets a second, numbered name.
 */
export class EntitySchemas {
  readonly components: Record<string, JsonSchema> = {};
  private readonly nameByShape = new Map<string, string>();

  /** The schema of a root field's answer: the field's type restricted to the operation's selection. */
  output(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (!isNonNullType(type)) return nullable(this.nonNullOutput(type, selectionSet));
    return this.nonNullOutput(type.ofType as GraphQLOutputType, selectionSet);
  }

  private nonNullOutput(inner: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isListType(inner)) return { type: "array", items: this.output(inner.ofType, selectionSet) };
    if (isObjectType(inner)) return this.entity(inner, selectionSet);
    if (isEnumType(inner)) return { type: "string", enum: inner.getValues().map((value) => value.name) };
    if (isScalarType(inner)) return scalarSchema(inner.name);
    throw new Error(`openapi: unsupported output type ${String(inner)} (unions and interfaces are not REST entities)`);
  }

  private entity(type: GraphQLObjectType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind !== Kind.FIELD) throw new Error(`openapi: ${type.name}: only plain field selections are described`);
      if (selection.name.value === "__typename") continue;
      const field = fields[selection.name.value]!;
      const key = selection.alias?.value ?? selection.name.value;
      // a field whose GraphQL type cannot say its REST shape (JSON) may document it (extensions.openapi)
      const documented = field.extensions?.openapi as JsonSchema | undefined;
      properties[key] = withDescription(documented ? structuredClone(documented) : this.output(field.type, selection.selectionSet), field.description);
      if (field.deprecationReason) properties[key] = { ...properties[key], deprecated: true };
      // a field the REST entity exposes conditionally (exposure.ts) may be left out
      if (isNonNullType(field.type) && !field.extensions?.restIf) required.push(key);
    }
    const schema: JsonSchema = { type: "object", properties, ...(required.length ? { required } : {}) };
    return { $ref: `#/components/schemas/${this.nameFor(type.name, schema)}` };
  }

  private nameFor(typeName: string, schema: JsonSchema): string {
    const shape = `${typeName} ${JSON.stringify(schema)}`;
    const known = this.nameByShape.get(shape);
    if (known) return known;
    let name = typeName;
    for (let n = 2; this.components[name]; n++) name = `${typeName}${n}`;
    this.components[name] = schema;
    this.nameByShape.set(shape, name);
    return name;
  }
}
