// THE route table of /api/v4: each row maps a GitLab method + path to one root field of the
// GraphQL schema. Success status defaults by verb (GET/PUT 200, POST 201, DELETE 204).
export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Route {
  method: Method;
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  status?: number;
}

const get = (path: string, field: string): Route => ({ method: "GET", path, field: `Query.${field}` });
const post = (path: string, field: string, status?: number): Route => ({ method: "POST", path, field: `Mutation.${field}`, status });
const put = (path: string, field: string, status?: number): Route => ({ method: "PUT", path, field: `Mutation.${field}`, status });
const del = (path: string, field: string): Route => ({ method: "DELETE", path, field: `Mutation.${field}` });

export const routes: Route[] = [
  // users
  get("/user", "currentUser"),
  get("/users", "users"),
  get("/users/:id", "user"),
  post("/users", "createUser"),
  // personal access tokens
  post("/users/:user_id/personal_access_tokens", "createPersonalAccessToken"),
  get("/personal_access_tokens", "personalAccessTokens"),
  get("/personal_access_tokens/:id", "personalAccessToken"),
  del("/personal_access_tokens/:id", "revokePersonalAccessToken"),
];

export function successStatus(route: Route): number {
  if (route.status) return route.status;
  return { GET: 200, POST: 201, PUT: 200, DELETE: 204 }[route.method];
}
