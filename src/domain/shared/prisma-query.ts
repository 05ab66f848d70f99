// Domain list functions accept the selection the GraphQL layer wants (`query` from
// @pothos/plugin-prisma: related rows to load in the same query) and add what they need.
export interface RelationQuery {
  include?: Record<string, unknown>;
}

export function withInclude<I extends Record<string, unknown>>(query: RelationQuery | undefined, include: I): { include: I } {
  return { include: { ...(query?.include ?? {}), ...include } as I };
}
