// Snippets: the Snippet node (Awardable, Noteable) with its blobs, Project.snippets and the root
// `snippets`, read through the domain's snippet list and lookups (a project's members see every
// snippet, others the public ones and, signed in, the internal ones; a personal snippet (project
// null) by PersonalSnippetPolicy). The root `snippets` finds personal ones by `ids` only.
import { GraphQLError } from "graphql";
import type { SnippetFile } from "../../generated/prisma/client.js";
import { findProject, shownProjectAccess } from "../../domain/shared/parents.js";
import { snippetFileRawUrl, snippetHttpUrlToRepo, snippetRawUrl, snippetSshUrlToRepo, snippetWebUrl } from "../../domain/snippets/urls.js";
import { findSnippetsByIds } from "../../domain/snippets/lookups.js";
import { findSnippet } from "../../domain/snippets/personal.js";
import { listProjectSnippets, type SnippetView } from "../../domain/snippets/queries.js";
import { AwardableRef } from "../award-emoji/types.js";
import { builder } from "../shared/builder.js";
import { VisibilityLevelsEnum } from "../shared/mutation-inputs.js";
import { countedConnection } from "../shared/connection-types.js";
import { arrayConnection, offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { idOfGid } from "../shared/ids.js";
import { registerNodeLoader } from "../shared/node.js";
import { NoteableRef } from "../notes/types.js";
import { ProjectRef } from "../projects/types.js";
import { userById, UserRef } from "../users/types.js";

export const SnippetRef = builder.objectRef<SnippetView>("Snippet");

/** A file of a snippet, with the snippet it belongs to (for its raw url). */
interface BlobView {
  snippet: SnippetView;
  file: SnippetFile;
}

const SnippetBlobRef = builder.objectRef<BlobView>("SnippetBlob");

builder.objectType(SnippetBlobRef, {
  description: "A file of a snippet.",
  fields: (t) => ({
    path: t.string({ resolve: ({ file }) => file.path }),
    name: t.string({ description: "The file's name without its folders.", resolve: ({ file }) => file.path.split("/").pop()! }),
    rawPath: t.string({ resolve: ({ snippet, file }, _a, ctx) => new URL(snippetFileRawUrl(ctx, snippet, file.path)).pathname }),
    rawPlainData: t.string({ resolve: ({ file }) => file.content }),
    size: t.int({ description: "Bytes of the content (UTF-8).", resolve: ({ file }) => Buffer.byteLength(file.content) }),
  }),
});

const SnippetBlobConnection = countedConnection(SnippetBlobRef, "SnippetBlob");


builder.node(SnippetRef, {
  description: "A project snippet.",
  interfaces: [AwardableRef, NoteableRef],
  id: { resolve: (snippet) => snippet.id },
  fields: (t) => ({
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    visibilityLevel: t.field({ type: VisibilityLevelsEnum, resolve: (snippet) => snippet.visibility as "private" | "internal" | "public" }),
    fileName: t.string({ nullable: true, description: "The first file's path.", resolve: (snippet) => snippet.files[0]?.path ?? null }),
    blobs: t.connection(
      { type: SnippetBlobRef, resolve: (snippet, args) => arrayConnection(args, snippet.files.map((file) => ({ snippet, file }))) },
      SnippetBlobConnection,
    ),
    webUrl: t.string({ resolve: (snippet, _a, ctx) => snippetWebUrl(ctx, snippet) }),
    rawUrl: t.string({ resolve: (snippet, _a, ctx) => snippetRawUrl(ctx, snippet) }),
    httpUrlToRepo: t.string({ resolve: (snippet, _a, ctx) => snippetHttpUrlToRepo(ctx, snippet) }),
    sshUrlToRepo: t.string({ resolve: (snippet, _a, ctx) => snippetSshUrlToRepo(ctx, snippet) }),
    author: t.field({ type: UserRef, resolve: (snippet, _a, ctx) => userById(ctx, snippet.authorId) }),
    project: t.field({ type: ProjectRef, nullable: true, description: "Null for a personal snippet.", resolve: (snippet) => snippet.project }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
  }),
});

export const SnippetConnection = countedConnection(SnippetRef, "Snippet");

builder.objectFields(ProjectRef, (t) => ({
  snippets: t.connection(
    {
      type: SnippetRef,
      nullable: true,
      description: "Snippets the caller may read, newest first; null for anonymous callers and when the feature is closed to the caller.",
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        return orNull(() => offsetConnection(args, (page) => listProjectSnippets(ctx, access, {}, page)));
      },
    },
    SnippetConnection,
  ),
}));

registerNodeLoader("Snippet", SnippetRef, (ctx, id) => findSnippet(ctx, id));

const SnippetTypeEnum = builder.enumType("TypeEnum", { values: ["personal", "project"] as const });
const VisibilityScopesEnum = builder.enumType("VisibilityScopesEnum", { values: ["private", "internal", "public"] as const });

/** GitLab's limit on `ids`. */
const MAX_IDS = 100;

/** Global ids of `model` as numbers; null when one is malformed or of another type (it finds nothing). */
function idsOf(gids: readonly (string | number)[], model: string): number[] | null {
  const ids = gids.map((id) => idOfGid(String(id), model));
  return ids.every((id): id is number => id != null) ? ids : null;
}

builder.queryFields((t) => ({
  snippets: t.connection(
    {
      type: SnippetRef,
      nullable: true,
      description:
        "Snippets the caller may read, newest first: of one project (`projectId`, signed-in callers) or by id (`ids`). " +
        "Null when an id is malformed or the project hidden from the caller.",
      args: {
        ids: t.arg.idList({ description: `At most ${MAX_IDS} snippet ids.` }),
        projectId: t.arg.id(),
        authorId: t.arg.id(),
        visibility: t.arg({ type: VisibilityScopesEnum }),
        type: t.arg({ type: SnippetTypeEnum }),
      },
      resolve: (_root, args, ctx) => {
        if (!args.ids && args.projectId == null) throw new GraphQLError("Provide projectId or ids: Forgeline has no instance-wide snippet list");
        if (args.ids && args.ids.length > MAX_IDS) throw new GraphQLError(`At most ${MAX_IDS} ids may be given`);
        const ids = args.ids ? idsOf(args.ids, "Snippet") : undefined;
        const projectId = args.projectId == null ? undefined : idOfGid(String(args.projectId), "Project");
        const authorId = args.authorId == null ? undefined : idOfGid(String(args.authorId), "User");
        if (ids === null || projectId === null || authorId === null) return null;
        const filters = { author_id: authorId, visibility: args.visibility };
        if (projectId == null) return findSnippetsByIds(ctx, ids!, { ...filters, type: args.type }).then((rows) => arrayConnection(args, rows));
        if (args.type === "personal") return arrayConnection(args, []);
        return orNull(async () => {
          const access = await findProject(ctx, projectId);
          return offsetConnection(args, (page) => listProjectSnippets(ctx, access, { ids, ...filters }, page));
        });
      },
    },
    SnippetConnection,
  ),
}));
