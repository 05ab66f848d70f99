// project webhook rows of the /api/v4 route table (maintainers and administrators); the key/value
// sub-resources answer 204
import { del, get, post, put, type Route } from "../route-helpers.js";

export const projectHookRoutes: Route[] = [
  get("/projects/:id/hooks", "projectHooks"),
  post("/projects/:id/hooks", "createProjectHook"),
  get("/projects/:id/hooks/:hook_id", "projectHook"),
  put("/projects/:id/hooks/:hook_id", "updateProjectHook"),
  del("/projects/:id/hooks/:hook_id", "deleteProjectHook"),
  put("/projects/:id/hooks/:hook_id/url_variables/:key", "setProjectHookUrlVariable", { status: 204 }),
  del("/projects/:id/hooks/:hook_id/url_variables/:key", "deleteProjectHookUrlVariable"),
  put("/projects/:id/hooks/:hook_id/custom_headers/:key", "setProjectHookCustomHeader", { status: 204 }),
  del("/projects/:id/hooks/:hook_id/custom_headers/:key", "deleteProjectHookCustomHeader"),
  get("/projects/:id/hooks/:hook_id/events", "projectHookEvents"),
  post("/projects/:id/hooks/:hook_id/events/:hook_event_id/resend", "resendProjectHookEvent"),
  post("/projects/:id/hooks/:hook_id/test/:trigger", "testProjectHook"),
  // Forgeline extension: a new Standard Webhooks signing secret, shown once
  post("/projects/:id/hooks/:hook_id/signing_secret", "rotateProjectHookSigningSecret"),
];
