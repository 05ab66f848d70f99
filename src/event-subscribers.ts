// Registers every domain event subscriber (see domain/shared/events.ts), the domain's own and the webhook
// fan-out, in the order they must run. Imported once by services.ts, so the subscriptions exist
// before the first request; it lives beside services.ts because it wires src/webhooks onto the
// domain, which imports nothing from src/webhooks.
import "./domain/merge-requests/subscribers.js";
import "./domain/notes/subscribers.js";
import "./domain/events/subscribers.js";
import "./domain/audit-events/subscribers.js";
import "./webhooks/subscribers.js";
import "./webhooks/tag-push.js";
import "./webhooks/releases.js";
import "./domain/merge-requests/approvals/subscribers.js";
import "./webhooks/project-events.js";
import "./domain/live-events/publisher.js";
import "./domain/repository/removal.js";
