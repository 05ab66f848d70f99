// award emoji rows of the /api/v4 route table: list, get, create and delete reactions on issues,
// merge requests and project snippets (domain/notes/noteable-kinds.ts), and on their notes
// (src/schema/award-emoji.ts).
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../../domain/notes/noteable-kinds.js";
import { del, get, post, type Route } from "../route-helpers.js";

function rowsFor(base: string, stem: string, Stem: string): Route[] {
  return [
    get(`${base}/award_emoji`, `${stem}AwardEmojis`),
    get(`${base}/award_emoji/:award_id`, `${stem}AwardEmoji`),
    post(`${base}/award_emoji`, `create${Stem}AwardEmoji`),
    del(`${base}/award_emoji/:award_id`, `delete${Stem}AwardEmoji`),
  ];
}

export const awardEmojiRoutes: Route[] = NOTEABLE_KINDS.flatMap((kind) => {
  const base = `/projects/:id/${noteablePath(kind)}`;
  return [
    ...rowsFor(base, kind.stem, capitalStem(kind)),
    ...rowsFor(`${base}/notes/:note_id`, `${kind.stem}Note`, `${capitalStem(kind)}Note`),
  ];
});
