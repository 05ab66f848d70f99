// Per-request batch loaders, so that list entities needing related rows cost one query per page.
import DataLoader from "dataloader";
import type { AwardEmoji, Commit, Namespace, Note, Project, User } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { Caches, RepositoryFacts } from "./caches.js";
import type { Services } from "./context.js";
import type { Tx } from "./events.js";
import { batchAwardEmoji, type AwardableKey } from "../award-emoji/loaders.js";
import { batchMergeRequestCommits, type MergeRequestRefs } from "../merge-requests/commits.js";
import { batchIssuableFacts, type IssuableFacts, type IssuableKey } from "./issuable-facts.js";
import { batchNotePages, batchNotes, notePageCacheKey, type NotePageKey, type NotesKey } from "../notes/loaders.js";
import type { Page } from "./pagination.js";
import { repositoryFactsOf } from "../repository/facts.js";
import { batchHookEvents, hookEventsCacheKey, type HookEventEntity, type HookEventsKey } from "../web-hooks/history.js";

export interface Loaders {
  namespace: DataLoader<number, Namespace | null>;
  user: DataLoader<number, User | null>;
  /** topic names of a project, in assignment order */
  projectTopicNames: DataLoader<number, string[]>;
  /** emoji reactions of an awardable (`awardableKey(type, id)`), oldest first */
  awardEmoji: DataLoader<AwardableKey, AwardEmoji[]>;
  /** notes of a noteable (`${type}:${id}:${internal notes included ? 1 : 0}`), oldest first */
  notes: DataLoader<NotesKey, Note[]>;
  /** the same page of many noteables' notes, oldest first */
  notePages: DataLoader<NotePageKey, Page<Note>, string>;
  /** the commits of a merge request (by id), newest first */
  mergeRequestCommits: DataLoader<MergeRequestRefs & { id: number }, Commit[], number>;
  /** the same page of many hooks' delivery histories, newest first */
  hookEvents: DataLoader<HookEventsKey, Page<HookEventEntity>, string>;
  /** comment and vote counts, assignees of an issue or merge request (`issuableKey(type, id)`) */
  issuableFacts: DataLoader<IssuableKey, IssuableFacts>;
  /** empty_repo and readme_url of a project (by id; its default branch is read from the row given) */
  repositoryFacts: DataLoader<Pick<Project, "id" | "defaultBranch">, RepositoryFacts, number>;
}

/** Users by id: from the server's user cache, the rest in one query (then cached). */
export async function usersById(db: Db | Tx, cache: Caches["users"], ids: readonly number[]): Promise<(User | null)[]> {
  const found = new Map<number, User>();
  for (const id of ids) {
    const user = cache.get(id);
    if (user) found.set(id, user);
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const stamp = cache.stamp();
    for (const row of await db.user.findMany({ where: { id: { in: missing } } })) {
      cache.keep(row.id, row, stamp);
      found.set(row.id, row);
    }
  }
  return ids.map((id) => found.get(id) ?? null);
}

export function createLoaders(services: Services): Loaders {
  return {
    awardEmoji: new DataLoader((keys) => batchAwardEmoji(services.db, keys)),
    hookEvents: new DataLoader((keys) => batchHookEvents(services, keys), { cacheKeyFn: hookEventsCacheKey }),
    issuableFacts: new DataLoader((keys) => batchIssuableFacts(services.db, keys)),
    notes: new DataLoader((keys) => batchNotes(services.db, keys)),
    mergeRequestCommits: new DataLoader((mrs) => batchMergeRequestCommits(services.db, mrs), { cacheKeyFn: (mr) => mr.id }),
    notePages: new DataLoader((keys) => batchNotePages(services.db, keys), { cacheKeyFn: notePageCacheKey }),
    repositoryFacts: new DataLoader((projects) => repositoryFactsOf(services.db, services.caches.repositories, projects), { cacheKeyFn: (p) => p.id }),
    namespace: new DataLoader(async (ids) => {
      const rows = await services.db.namespace.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    user: new DataLoader((ids) => usersById(services.db, services.caches.users, ids)),
    projectTopicNames: new DataLoader(async (projectIds) => {
      const rows = await services.db.projectTopic.findMany({
        where: { projectId: { in: [...projectIds] } },
        include: { topic: { select: { name: true } } },
        orderBy: { position: "asc" },
      });
      return projectIds.map((id) => rows.filter((row) => row.projectId === id).map((row) => row.topic.name));
    }),
  };
}
