// group hook delivery history, resend and test rows of the /api/v4 route table
import { get, post, type Route } from "../route-helpers.js";

export const groupHookEventRoutes: Route[] = [
  get("/groups/:id/hooks/:hook_id/events", "groupHookEvents"),
  post("/groups/:id/hooks/:hook_id/events/:hook_event_id/resend", "resendGroupHookEvent"),
  post("/groups/:id/hooks/:hook_id/test/:trigger", "testGroupHook"),
];
