// The public graph (served at PUBLIC_GRAPH_PATH beside the REST mirror on /graphql): every module
// registers its types, connections and mutations on the graph's own builder.
import { builder } from "./builder.js";
import "./scalars.js";
import "./node.js";
import "./users.js";
import "./namespaces.js";
import "./projects.js";
import "./members.js";
import "./topics.js";
import "./award-emoji.js";
import "./notes.js";
import "./issues.js";
import "./merge-requests.js";
import "./snippets.js";
import "./discussions.js";
import "./commits.js";
import "./approvals.js";
import "./repository.js";
import "./approval-rules.js";
import "./hooks.js";
import "./hook-mutations.js";
import "./branch-mutations.js";
import "./admin.js";
import "./issue-mutations.js";
import "./note-mutations.js";
import "./award-emoji-mutations.js";
import "./merge-request-mutations.js";
import "./merge-request-writes.js";
import "./topic-mutations.js";
import "./member-mutations.js";
import "./group-mutations.js";
import "./project-mutations.js";
import "./snippet-mutations.js";
import "./discussion-mutations.js";
import "./approval-rule-mutations.js";
import "./merge-request-rule-mutations.js";

export const publicSchema = builder.toSchema({ sortSchema: true });
