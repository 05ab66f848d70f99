// One shape for every write of the public graph: `name(input: {...}): { <object>, errors }`.
// The input's fields, the domain write it calls and the object it returns are all a mutation
// file states; the `errors` field, the refusal rules (errors.ts `payload`) and the nullable object
// field are the same for all of them.
import type { InputFieldMap, InputShapeFromFields, ObjectRef } from "@pothos/core";
import type { Context } from "../../context.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** What a payload mutation's resolver hands its output fields: the write's result or null, and the errors. */
export interface PayloadResult<Result> {
  result: Result | null;
  errors: string[];
}

/** The field builder of a payload whose write returns `Result` (for extra fields declared apart). */
export type PayloadFieldBuilder<Result> = PothosSchemaTypes.ObjectFieldBuilder<Types, PayloadResult<Result>>;

type ExtraFields<Result> = (t: PayloadFieldBuilder<Result>) => Record<string, PothosSchemaTypes.FieldRef<Types, unknown, "Object">>;

/** The input field builder of a payload mutation (for input fields several mutations share). */
export type PayloadInputFieldBuilder = PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">;

export interface PayloadMutationOptions<Fields extends InputFieldMap, Shape, Result extends Shape | null> {
  description?: string;
  inputFields: (t: PayloadInputFieldBuilder) => Fields;
  /** The domain write: the same function the REST route calls. */
  write: (input: InputShapeFromFields<Fields>, ctx: Context) => Promise<Result>;
  /**
   * The object the payload returns under `field` (none for deletes and other writes without one);
   * the write's result must be the type's shape, or null for a write whose object is gone.
   */
  returns?: { field: string; type: ObjectRef<Types, Shape, unknown>; description?: string };
  /** Fields beside the object, such as a secret shown once. */
  extraFields?: ExtraFields<Result>;
}

/** Adds `name` to the mutation type: one `input`, a payload with the returned object and `errors`. */
export function payloadMutation<Fields extends InputFieldMap, Shape, Result extends Shape | null>(
  name: string,
  options: PayloadMutationOptions<Fields, Shape, Result>,
) {
  const { returns, extraFields } = options;
  builder.relayMutationField(
    name,
    { inputFields: options.inputFields },
    {
      description: options.description,
      resolve: (_root, args, ctx) =>
        payload(ctx, "result", () => options.write((args as unknown as { input: InputShapeFromFields<Fields> }).input, ctx)) as Promise<PayloadResult<Result>>,
    },
    {
      outputFields: (t) => ({
        ...(returns
          ? { [returns.field]: t.field({ type: returns.type as ObjectRef<Types, unknown>, nullable: true, description: returns.description, resolve: (p: PayloadResult<Result>) => p.result }) }
          : {}),
        ...(extraFields ? extraFields(t as never) : {}),
        errors: t.stringList({ resolve: (p: PayloadResult<Result>) => p.errors }),
      }),
    },
  );
}
