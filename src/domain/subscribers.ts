// Registers every domain event subscriber (see events.ts). Imported once by services.ts, so the
// subscriptions exist before the first request.
import "./merge-requests/subscribers.js";
import "../webhooks/subscribers.js";
import "./approvals/subscribers.js";
