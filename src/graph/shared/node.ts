// `node(id:)` and `nodes(ids:)`: each node type registers how to load one of its records through
// the domain; an id that is malformed, of an unknown type, missing or hidden from the caller is null.
import { brandWithType, type ObjectRef } from "@pothos/core";
import { GraphQLError } from "graphql";
import type { Context } from "../../context.js";
import { builder } from "./builder.js";
import { orNull } from "./errors.js";
import { fitsIdColumn } from "../../domain/shared/record-ids.js";
import { decodeGid } from "./ids.js";

type Load = (ctx: Context, id: number) => Promise<object | null>;

const loaders = new Map<string, { type: ObjectRef<any, any>; load: Load }>();

/** How to load a record of `model` (the name in its global ids) shown as the GraphQL `type`. */
export function registerNodeLoader<T extends object>(model: string, type: ObjectRef<any, T>, load: (ctx: Context, id: number) => Promise<T | null>): void {
  loaders.set(model, { type, load });
}

export async function loadNode(ctx: Context, globalId: string): Promise<object | null> {
  const { typename, id } = decodeGid(globalId);
  const node = fitsIdColumn(Number(id)) ? loaders.get(typename) : undefined;
  const found = node ? await orNull(() => node.load(ctx, Number(id))) : null;
  if (!found) return null;
  // the Node interface tells the concrete type from a brand, put on a copy: cached rows are frozen
  const copy = { ...found };
  brandWithType(copy, node!.type as never);
  return copy;
}

/** GitLab's limit on `nodes(ids:)`. */
const MAX_NODES = 100;

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description: "Find an object by its global id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => loadNode(ctx, String(args.id)),
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `Find objects by their global ids (at most ${MAX_NODES}).`,
    args: { ids: t.arg.idList({ required: true }) },
    complexity: (args) => ({ field: 1, multiplier: (args.ids as unknown[]).length }),
    resolve: (_root, args, ctx) => {
      if (args.ids.length > MAX_NODES) throw new GraphQLError(`At most ${MAX_NODES} ids may be given`);
      return Promise.all(args.ids.map((id) => loadNode(ctx, String(id))));
    },
  }),
}));
