// Merge request approvals: GitLab's group, project and merge request level endpoints, one
// module per level (shared entities: entities.ts; shared arguments: args.ts).
import "./group-rules.js";
import "./settings.js";
import "./project-rules.js";
import "./merge-request.js";
import "./merge-request-rules.js";
