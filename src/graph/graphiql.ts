// GraphiQL on the public graph: a title, a header to fill in with a token, and a default query
// whose operations run as they are on any instance (pick one with the run button's menu).
import type { GraphiQLOptions } from "graphql-yoga";

const EXAMPLES = `# Forgeline's public graph, shaped after GitLab's GraphQL API.
# Put a personal access token in the Headers tab below ("PRIVATE-TOKEN"), then run an operation.

query Me {
  currentUser { id username name }
}

# A project by its full path: its open issues with their reactions, and its merge requests
# with their approval state. Connections take first/after/last/before.
query ProjectOverview($fullPath: ID! = "root/example") {
  project(fullPath: $fullPath) {
    id
    nameWithNamespace
    issues(first: 5, state: opened) {
      count
      pageInfo { hasNextPage endCursor }
      nodes {
        id iid title
        author { username }
        awardEmoji(first: 10) { nodes { name user { username } } }
      }
    }
    mergeRequests(first: 5) {
      nodes { iid title approved approvedBy { nodes { username } } }
    }
  }
}

# Writes take one input and answer a payload with errors.
mutation OpenIssue($projectPath: ID! = "root/example") {
  createIssue(input: { projectPath: $projectPath, title: "Opened from GraphiQL" }) {
    issue { id iid webUrl }
    errors
  }
}
`;

// Commented out (GraphiQL reads headers as JSON with comments): the placeholder sent as a token
// would answer 401 to GraphiQL's schema introspection on load, leaving it without a schema.
const HEADERS = `{
  // Uncomment with a personal access token; without one you are anonymous.
  // "PRIVATE-TOKEN": "<your personal access token>"
}`;

export const PUBLIC_GRAPHIQL: GraphiQLOptions = {
  title: "Forgeline GraphQL",
  defaultQuery: EXAMPLES,
  headers: HEADERS,
};
