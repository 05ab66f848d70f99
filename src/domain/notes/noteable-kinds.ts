// The kinds of record that take notes and emoji reactions (GitLab's Noteable and Awardable): issues,
// merge requests and project snippets, and the notes on each of them, which take reactions too.
// The REST routes, the REST facade's root fields and the graph's lookups by global id all come
// from this one table.

export interface NoteableKind {
  /** the model (Prisma's and GraphQL's type name, and a note's `noteableType`) */
  type: "Issue" | "MergeRequest" | "Snippet";
  /** the path segment under /projects/:id */
  segment: string;
  /** the REST path param naming the record: an iid, or a snippet's id */
  param: string;
  /** the stem of the root field names (`issueNotes`, `createIssueNote`...) */
  stem: string;
  /** Noteable.resolvable_types: its threads resolve (issue threads since GitLab 16.3, "Make issue threads resolvable") */
  resolvable: boolean;
  /** Noteable.replyable_types: an individual note on it becomes a thread when replied to */
  replyable: boolean;
}

export const NOTEABLE_KINDS = [
  { type: "Issue", segment: "issues", param: "issue_iid", stem: "issue", resolvable: true, replyable: true },
  { type: "MergeRequest", segment: "merge_requests", param: "merge_request_iid", stem: "mergeRequest", resolvable: true, replyable: true },
  { type: "Snippet", segment: "snippets", param: "snippet_id", stem: "snippet", resolvable: false, replyable: false },
] as const satisfies readonly NoteableKind[];

export type NoteableType = (typeof NOTEABLE_KINDS)[number]["type"];

/** Every noteable takes reactions, and so does every note on one. */
export type AwardableType = NoteableType | "Note";

const kindOf = (type: string) => NOTEABLE_KINDS.find((kind) => kind.type === type);

export const isNoteableType = (type: string): type is NoteableType => kindOf(type) !== undefined;

/** The kind's path under a project, e.g. `issues/:issue_iid`. */
export const noteablePath = (kind: NoteableKind) => `${kind.segment}/:${kind.param}`;

/** The stem with a capital, for mutation names (`createMergeRequestNote`). */
export const capitalStem = (kind: NoteableKind) => kind.stem[0]!.toUpperCase() + kind.stem.slice(1);

export const isResolvableType = (type: string) => kindOf(type)?.resolvable ?? false;

export const isReplyableType = (type: string) => kindOf(type)?.replyable ?? false;
