// Requests to the public graph (src/graph/) as an ApiClient's user.
import { PUBLIC_GRAPH_PATH } from "../../src/app.js";
import { expect } from "vitest";
import type { ApiClient } from "./api.js";

export interface GraphResult<T = any> {
  status: number;
  body: { data?: T; errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[] };
}

export async function graph<T = any>(client: ApiClient, query: string, variables: Record<string, unknown> = {}): Promise<GraphResult<T>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (client.token) headers["PRIVATE-TOKEN"] = client.token;
  const response = await client.app.fetch(
    new Request(`http://forgeline.test${PUBLIC_GRAPH_PATH}`, { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
  );
  return { status: response.status, body: (await response.json()) as GraphResult<T>["body"] };
}

/** The data of a query that must succeed. */
export async function graphData<T = any>(client: ApiClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await graph<T>(client, query, variables);
  if (res.body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.body.errors)}`);
  return res.body.data!;
}

export const gid = (type: string, id: number) => `gid://forgeline/${type}/${id}`;

/** GitLab's answer to a mutation on something missing, hidden or not the caller's to change. */
export const NOT_AVAILABLE = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

/** The mutation `field` was refused with NOT_AVAILABLE and answered no object. */
export function expectNotAvailable(res: GraphResult, field: string) {
  expect(res.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: [field] });
  expect((res.body.data as Record<string, unknown> | undefined)?.[field] ?? null).toBeNull();
}
