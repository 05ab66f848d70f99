// THE route table of /api/v4: each row maps a GitLab method + path to one root field of the
// GraphQL schema. Success status defaults by verb (GET/PUT 200, POST 201, DELETE 204).
// `files` names the route's file params (Upload args), in order: see the adapter's `file` part.
export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Route {
  method: Method;
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  status?: number;
  /** params that take a multipart file part (Upload args) */
  files?: readonly string[];
}

type RouteOptions = Pick<Route, "status" | "files">;

const get = (path: string, field: string): Route => ({ method: "GET", path, field: `Query.${field}` });
const post = (path: string, field: string, options: RouteOptions = {}): Route => ({ method: "POST", path, field: `Mutation.${field}`, ...options });
const put = (path: string, field: string, options: RouteOptions = {}): Route => ({ method: "PUT", path, field: `Mutation.${field}`, ...options });
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
  get("/personal_access_tokens/self", "currentPersonalAccessToken"),
  get("/personal_access_tokens/:id", "personalAccessToken"),
  del("/personal_access_tokens/self", "revokeCurrentPersonalAccessToken"),
  del("/personal_access_tokens/:id", "revokePersonalAccessToken"),
  // instance feature flags (administrators)
  get("/features", "features"),
  get("/features/definitions", "featureDefinitions"),
  post("/features/:name", "setFeature"),
  del("/features/:name", "deleteFeature"),
  // instance metadata
  get("/version", "metadata"),
  // groups
  get("/groups", "groups"),
  post("/groups", "createGroup", { files: ["avatar"] }),
  get("/groups/:id", "group"),
  put("/groups/:id", "updateGroup", { files: ["avatar"] }),
  get("/groups/:id/subgroups", "groupSubgroups"),
  get("/groups/:id/projects", "groupProjects"),
  get("/groups/:id/members", "groupMembers"),
  get("/groups/:id/members/all", "groupMembersAll"),
  get("/groups/:id/members/all/:user_id", "groupMemberAll"),
  post("/groups/:id/members", "addGroupMember"),
  get("/groups/:id/members/:user_id", "groupMember"),
  put("/groups/:id/members/:user_id", "updateGroupMember"),
  del("/groups/:id/members/:user_id", "removeGroupMember"),
  // projects
  get("/projects", "projects"),
  post("/projects", "createProject"),
  get("/projects/:id", "project"),
  put("/projects/:id", "updateProject"),
  put("/projects/:id/transfer", "transferProject"),
  get("/projects/:id/members", "projectMembers"),
  get("/projects/:id/members/all", "projectMembersAll"),
  get("/projects/:id/members/all/:user_id", "projectMemberAll"),
  post("/projects/:id/members", "addProjectMember"),
  get("/projects/:id/members/:user_id", "projectMember"),
  put("/projects/:id/members/:user_id", "updateProjectMember"),
  del("/projects/:id/members/:user_id", "removeProjectMember"),
  // project and group access tokens
  get("/projects/:id/access_tokens", "projectAccessTokens"),
  post("/projects/:id/access_tokens", "createProjectAccessToken"),
  get("/projects/:id/access_tokens/:token_id", "projectAccessToken"),
  del("/projects/:id/access_tokens/:token_id", "revokeProjectAccessToken"),
  get("/groups/:id/access_tokens", "groupAccessTokens"),
  post("/groups/:id/access_tokens", "createGroupAccessToken"),
  get("/groups/:id/access_tokens/:token_id", "groupAccessToken"),
  del("/groups/:id/access_tokens/:token_id", "revokeGroupAccessToken"),
];

export function successStatus(route: Route): number {
  if (route.status) return route.status;
  return { GET: 200, POST: 201, PUT: 200, DELETE: 204 }[route.method];
}
