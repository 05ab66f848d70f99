// The GraphQL schema: every resource module registers its types and root fields on the builder.
import { builder } from "./builder.js";
import "./scalars.js";
import "./users.js";
import "./user-lifecycle.js";
import "./personal-access-tokens.js";
import "./groups.js";
import "./members.js";
import "./projects.js";
import "./features.js";
import "./metadata.js";
import "./resource-access-tokens.js";
import "./group-hooks.js";
import "./project-hooks.js";
import "./applications.js";
import "./topics.js";
import "./repository.js";
import "./commit-changes.js";
import "./tags.js";
import "./repository-files.js";
import "./repository-browse.js";
import "./issues.js";
import "./merge-requests.js";
import "./merge-request-merging.js";
import "./merge-request-versions.js";
import "./issue-relations.js";
import "./notes.js";
import "./discussions.js";
import "./snippets.js";
import "./award-emoji.js";
import "./approvals/index.js";
import "./lifecycle.js";
import "./uploads.js";
import "./releases.js";

// Not sorted: REST reports bad params in declaration order (schema.graphql is printed sorted).
export const schema = builder.toSchema({ sortSchema: false });
