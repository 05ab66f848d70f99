// Commits: the Commit type and MergeRequest.commits, the merge request's commits newest first
// (what its source head has that the target lacks), as REST reads them, for a page of merge
// requests at once (listMergeRequestCommits).
import { listMergeRequestCommits } from "../../domain/merge-requests/reviews.js";
import type { CommitRecord } from "../../domain/repository/git.js";
import { commitWebUrl } from "../../domain/repository/urls.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { MergeRequestRef } from "../merge-requests/types.js";

export const CommitRef = builder.objectRef<CommitRecord>("Commit");

builder.objectType(CommitRef, {
  description: "A commit of a project's repository.",
  fields: (t) => ({
    id: t.id({ description: "The commit's global id (by its sha).", resolve: (commit) => `gid://forgeline/Commit/${commit.sha}` }),
    sha: t.exposeString("sha"),
    shortId: t.string({ resolve: (commit) => commit.sha.slice(0, 8) }),
    title: t.exposeString("title"),
    message: t.exposeString("message"),
    authorName: t.exposeString("authorName"),
    authorEmail: t.exposeString("authorEmail"),
    committerName: t.exposeString("committerName"),
    committerEmail: t.exposeString("committerEmail"),
    authoredDate: t.expose("authoredAt", { type: "Time" }),
    committedDate: t.expose("committedAt", { type: "Time" }),
    webUrl: t.string({ resolve: (commit, _a, ctx) => commitWebUrl(ctx, commit.projectId, commit.sha) }),
  }),
});

export const CommitConnection = countedConnection(CommitRef, "Commit");

builder.objectFields(MergeRequestRef, (t) => ({
  commits: t.connection(
    {
      type: CommitRef,
      nullable: true,
      description: "The merge request's commits, newest first.",
      resolve: (mr, args, ctx) => offsetConnection(args, (page) => listMergeRequestCommits(ctx, mr, page)),
    },
    CommitConnection,
  ),
}));
