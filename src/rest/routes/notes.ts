// notes rows of the /api/v4 route table: the same five endpoints on issues, merge requests and
// project snippets
import { del, get, post, put, type Route } from "../route-helpers.js";

const noteables = [
  { path: "issues/:issue_iid", stem: "issue", Stem: "Issue" },
  { path: "merge_requests/:merge_request_iid", stem: "mergeRequest", Stem: "MergeRequest" },
  { path: "snippets/:snippet_id", stem: "snippet", Stem: "Snippet" },
];

export const noteRoutes: Route[] = noteables.flatMap(({ path, stem, Stem }) => [
  get(`/projects/:id/${path}/notes`, `${stem}Notes`),
  post(`/projects/:id/${path}/notes`, `create${Stem}Note`),
  get(`/projects/:id/${path}/notes/:note_id`, `${stem}Note`),
  put(`/projects/:id/${path}/notes/:note_id`, `update${Stem}Note`),
  del(`/projects/:id/${path}/notes/:note_id`, `delete${Stem}Note`),
]);
