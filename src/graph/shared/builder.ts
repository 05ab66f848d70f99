// The public graph's own Pothos builder (GitLab's GraphQL API as the model): Relay nodes and
// connections with `gid://forgeline/<Type>/<id>` ids, field costs for the limits (limits.ts). Separate
// from src/schema/builder.ts, whose root fields mirror the REST routes for the REST facade.
import SchemaBuilder from "@pothos/core";
import ComplexityPlugin from "@pothos/plugin-complexity";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import type { Context } from "../../context.js";
import type { FileUpload } from "../../domain/shared/avatars.js";
import type PrismaTypes from "../../generated/pothos-types.js";
import { getDatamodel } from "../../generated/pothos-types.js";
import { decodeGid, encodeGid } from "./ids.js";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    Time: { Input: Date; Output: Date | string };
    ID: { Input: string; Output: string | number };
    Upload: { Input: Promise<FileUpload>; Output: never };
  };
}>({
  // Prisma: no prismaObject here; the domain's functions read the rows and the per-request loaders
  // batch what hangs off them (README, "Where @pothos/plugin-prisma is used"). The plugin's typings
  // make its options required on every builder of the program, hence the plugin and options.
  plugins: [PrismaPlugin, RelayPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  prisma: { client: (ctx) => ctx.db, dmmf: getDatamodel(), exposeDescriptions: false, onUnusedQuery: null },
  relay: {
    clientMutationId: "omit",
    // GitLab's connections have `nodes` beside `edges`
    nodesOnConnection: true,
    cursorType: "String",
    encodeGlobalID: encodeGid,
    decodeGlobalID: decodeGid,
    // node(id:) and nodes(ids:) are ours (node.ts): an unknown or malformed id is null, not an error
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  // field costs only: the limits are checked once per operation when it is validated (limits.ts)
  complexity: { defaultComplexity: 1, defaultListMultiplier: 10 },
});

builder.queryType({});
builder.mutationType({});
