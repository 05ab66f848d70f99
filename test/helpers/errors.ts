// GitLab's error bodies as its API sends them, named after their texts. Note the two 404 texts:
// a failed record lookup says "404 Not found", an explicit check names the thing ("404 Project
// Not Found").
export const UNAUTHORIZED = Object.freeze({ message: "401 Unauthorized" });
export const FORBIDDEN = Object.freeze({ message: "403 Forbidden" });
export const NOT_FOUND = Object.freeze({ message: "404 Not found" });
export const PROJECT_NOT_FOUND = Object.freeze({ message: "404 Project Not Found" });
export const SNIPPET_NOT_FOUND = Object.freeze({ message: "404 Snippet Not Found" });
export const NOTE_NOT_FOUND = Object.freeze({ message: "404 Note Not Found" });
export const AWARD_EMOJI_NOT_FOUND = Object.freeze({ message: "404 Award Emoji Not Found" });

/**
 * What every actor but an administrator gets from an admin-only route (GitLab's
 * authenticated_as_admin!): 401 without a token, 403 for any other user whatever their roles.
 */
export const ADMIN_ONLY_REFUSALS = Object.freeze({
  anonymous: [401, UNAUTHORIZED],
  nonMember: [403, FORBIDDEN],
  guest: [403, FORBIDDEN],
  reporter: [403, FORBIDDEN],
  developer: [403, FORBIDDEN],
  maintainer: [403, FORBIDDEN],
  owner: [403, FORBIDDEN],
} as const satisfies Record<string, readonly [number, object]>);

/** The `extensions` of a GraphQL response's first error: `{ http: { status }, gitlab: <REST body> }`. */
export const gitlabError = (res: { body: { errors?: any[] } }) => res.body.errors![0].extensions;
