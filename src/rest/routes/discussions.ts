// discussions rows of the /api/v4 route table (lib/api/discussions.rb) on issues, merge requests
// and project snippets (domain/notes/noteable-kinds.ts); resolving a whole thread on the resolvable kinds only
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../../domain/notes/noteable-kinds.js";
import { del, get, post, put, type Route } from "../route-helpers.js";

export const discussionRoutes: Route[] = NOTEABLE_KINDS.flatMap((kind) => {
  const { stem, resolvable } = kind;
  const Stem = capitalStem(kind);
  const base = `/projects/:id/${noteablePath(kind)}/discussions`;
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
