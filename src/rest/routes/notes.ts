// notes rows of the /api/v4 route table: the same five endpoints on issues, merge requests and
// project snippets (the noteable kinds of domain/notes/noteable-kinds.ts)
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../../domain/notes/noteable-kinds.js";
import { del, get, post, put, type Route } from "../route-helpers.js";

export const noteRoutes: Route[] = NOTEABLE_KINDS.flatMap((kind) => {
  const { stem } = kind;
  const Stem = capitalStem(kind);
  const base = `/projects/:id/${noteablePath(kind)}/notes`;
  return [
    get(base, `${stem}Notes`),
    post(base, `create${Stem}Note`),
    get(`${base}/:note_id`, `${stem}Note`),
    put(`${base}/:note_id`, `update${Stem}Note`),
    del(`${base}/:note_id`, `delete${Stem}Note`),
  ];
});
