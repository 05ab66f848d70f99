// The GraphQL schema: every resource module registers its types and root fields on the builder.
import { builder } from "./builder.js";
import "./scalars.js";
import "./users.js";
import "./personal-access-tokens.js";
import "./groups.js";
import "./members.js";
import "./projects.js";
import "./features.js";
import "./metadata.js";
import "./resource-access-tokens.js";
import "./group-hooks.js";
import "./group-hook-events.js";
import "./applications.js";
import "./topics.js";
import "./repository.js";
import "./issues.js";
import "./merge-requests.js";
import "./notes.js";
import "./snippets.js";
import "./award-emoji.js";
import "./approvals/index.js";

// Not sorted: REST reports bad params in declaration order (schema.graphql is printed sorted).
export const schema = builder.toSchema({ sortSchema: false });
