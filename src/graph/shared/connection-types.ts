// Connection types named as GitLab names them (`IssueConnection`, `IssueEdge`), with `count`.
import type { ObjectRef } from "@pothos/core";
import { builder } from "./builder.js";
import type { Counted } from "./connections.js";

export function countedConnection<T>(node: ObjectRef<any, T>, name: string) {
  return builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      fields: (t) => ({
        count: t.int({
          nullable: true,
          description: "Total number of items (null when more than 10,000 match).",
          resolve: (connection) => (connection as unknown as Counted).count,
        }),
      }),
    },
    { name: `${name}Edge` },
  );
}
