// discussions rows of the /api/v4 route table (lib/api/discussions.rb) on issues, merge requests
// and project snippets; resolving a whole thread on the resolvable kinds only
import { del, get, post, put, type Route } from "../route-helpers.js";

const noteables = [
  { path: "issues/:issue_iid", stem: "issue", Stem: "Issue", resolvable: true },
  { path: "merge_requests/:merge_request_iid", stem: "mergeRequest", Stem: "MergeRequest", resolvable: true },
  { path: "snippets/:snippet_id", stem: "snippet", Stem: "Snippet", resolvable: false },
];

export const discussionRoutes: Route[] = noteables.flatMap(({ path, stem, Stem, resolvable }) => {
  const base = `/projects/:id/${path}/discussions`;
  return [
    get(base, `${stem}Discussions`),
    post(base, `create${Stem}Discussion`),
    get(`${base}/:discussion_id`, `${stem}Discussion`),
    ...(resolvable ? [put(`${base}/:discussion_id`, `resolve${Stem}Discussion`)] : []),
    get(`${base}/:discussion_id/notes`, `${stem}DiscussionNotes`),
    post(`${base}/:discussion_id/notes`, `create${Stem}DiscussionNote`),
    get(`${base}/:discussion_id/notes/:note_id`, `${stem}DiscussionNote`),
    put(`${base}/:discussion_id/notes/:note_id`, `update${Stem}DiscussionNote`),
    del(`${base}/:discussion_id/notes/:note_id`, `delete${Stem}DiscussionNote`),
  ];
});
