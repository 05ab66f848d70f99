// Registers every domain event subscriber (see events.ts). Imported once by services.ts, so the
// subscriptions exist before the first request.
// first: the push payloads and merge request reactions see the default branch it may set
import "./repository/first-branch.js";
import "./merge-requests/subscribers.js";
import "../webhooks/subscribers.js";
import "../webhooks/tag-push.js";
import "./approvals/subscribers.js";
import "../webhooks/project-events.js";
