// THE route table of /api/v4: each row maps a GitLab method + path to one root field of the
// GraphQL schema (row helpers and defaults: route-helpers.ts). Work item areas keep their rows in routes/.
import { del, get, post, put, type Route } from "./route-helpers.js";
import { repositoryRoutes } from "./routes/repository.js";
import { repositoryFileRoutes } from "./routes/repository-files.js";
import { repositoryBrowseRoutes } from "./routes/repository-browse.js";
import { userRoutes } from "./routes/users.js";
import { issueRoutes } from "./routes/issues.js";
import { mergeRequestRoutes } from "./routes/merge-requests.js";
import { noteRoutes } from "./routes/notes.js";
import { discussionRoutes } from "./routes/discussions.js";
import { snippetRoutes } from "./routes/snippets.js";
import { awardEmojiRoutes } from "./routes/award-emoji.js";
import { approvalRoutes } from "./routes/approvals.js";
import { groupHookEventRoutes } from "./routes/group-hook-events.js";
import { projectHookRoutes } from "./routes/project-hooks.js";
import { lifecycleRoutes } from "./routes/lifecycle.js";

export type { Method, Route } from "./route-helpers.js";

export const routes: Route[] = [
  ...userRoutes,
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
  get("/metadata", "metadata"), // GitLab's newer name for the same answer
  // instance-wide OAuth applications (administrators); create and renew-secret answer 200 as the spec says
  post("/applications", "createApplication", { status: 200 }),
  get("/applications", "applications"),
  del("/applications/:id", "deleteApplication"),
  post("/applications/:id/renew-secret", "renewApplicationSecret", { status: 200 }),
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
  // group webhooks (administrators and group Owners); the key/value sub-resources answer 204
  get("/groups/:id/hooks", "groupHooks"),
  post("/groups/:id/hooks", "createGroupHook"),
  get("/groups/:id/hooks/:hook_id", "groupHook"),
  put("/groups/:id/hooks/:hook_id", "updateGroupHook"),
  del("/groups/:id/hooks/:hook_id", "deleteGroupHook"),
  put("/groups/:id/hooks/:hook_id/url_variables/:key", "setGroupHookUrlVariable", { status: 204 }),
  del("/groups/:id/hooks/:hook_id/url_variables/:key", "deleteGroupHookUrlVariable"),
  put("/groups/:id/hooks/:hook_id/custom_headers/:key", "setGroupHookCustomHeader", { status: 204 }),
  del("/groups/:id/hooks/:hook_id/custom_headers/:key", "deleteGroupHookCustomHeader"),
  post("/groups/:id/hooks/:hook_id/signing_secret", "rotateGroupHookSigningSecret"), // Forgeline extension: shown once
  // project topics (reads public, writes administrators)
  get("/topics", "topics"),
  get("/topics/:id", "topic"),
  post("/topics", "createTopic", { files: ["avatar"] }),
  put("/topics/:id", "updateTopic", { files: ["avatar"] }),
  del("/topics/:id", "deleteTopic"),
  post("/topics/merge", "mergeTopics"),
  // work items, one file per area under routes/
  ...repositoryRoutes,
  ...repositoryFileRoutes,
  ...repositoryBrowseRoutes,
  ...issueRoutes,
  ...mergeRequestRoutes,
  ...noteRoutes,
  ...discussionRoutes,
  ...snippetRoutes,
  ...awardEmojiRoutes,
  ...approvalRoutes,
  ...groupHookEventRoutes,
  ...projectHookRoutes,
  ...lifecycleRoutes,
];

export function successStatus(route: Route): number {
  if (route.status) return route.status;
  return { GET: 200, POST: 201, PUT: 200, DELETE: 204 }[route.method];
}
