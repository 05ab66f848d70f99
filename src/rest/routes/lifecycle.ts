// Group and project lifecycle routes. Deleting answers 202 with Grape's `accepted!` body
// (`{"message":"202 Accepted"}`), as GitLab's DELETE /groups/:id and DELETE /projects/:id do.
import { get, post, type Route } from "../route-helpers.js";

const accepted = (path: string, field: string): Route => ({ method: "DELETE", path, field: `Mutation.${field}`, status: 202 });

export const lifecycleRoutes: Route[] = [
  accepted("/groups/:id", "deleteGroup"),
  post("/groups/:id/transfer", "transferGroup"),
  get("/groups/:id/descendant_groups", "groupDescendantGroups"),
  accepted("/projects/:id", "deleteProject"),
  get("/projects/:id/groups", "projectGroups"),
];
