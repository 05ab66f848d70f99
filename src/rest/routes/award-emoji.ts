// award emoji rows of the /api/v4 route table: list, get, create and delete reactions on issues,
// merge requests and project snippets, and on their notes (src/schema/award-emoji.ts).
import { del, get, post, type Route } from "../route-helpers.js";

const AWARDABLES = [
  { path: "issues/:issue_iid", stem: "Issue" },
  { path: "merge_requests/:merge_request_iid", stem: "MergeRequest" },
  { path: "snippets/:snippet_id", stem: "Snippet" },
] as const;

const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);

function rowsFor(base: string, stem: string): Route[] {
  return [
    get(`${base}/award_emoji`, `${lowerFirst(stem)}AwardEmojis`),
    get(`${base}/award_emoji/:award_id`, `${lowerFirst(stem)}AwardEmoji`),
    post(`${base}/award_emoji`, `create${stem}AwardEmoji`),
    del(`${base}/award_emoji/:award_id`, `delete${stem}AwardEmoji`),
  ];
}

export const awardEmojiRoutes: Route[] = AWARDABLES.flatMap(({ path, stem }) => [
  ...rowsFor(`/projects/:id/${path}`, stem),
  ...rowsFor(`/projects/:id/${path}/notes/:note_id`, `${stem}Note`),
]);
