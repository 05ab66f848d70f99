// What hangs from an issue, a merge request, a snippet or a note by type and id, with no foreign
// key to follow (GitLab's `dependent: :destroy` on notes and award emoji, `dependent: :delete_all`
// on the events naming them): their notes, the notes' reactions, their own reactions and events,
// and an issue's or a snippet's user agent detail. The deleting write calls these in its own transaction and
// deletes the parent rows itself. Kept below notes and reactions so that the resources they hang
// from need not import them.
import { Prisma } from "../../generated/prisma/client.js";
import type { AwardableType } from "../award-emoji/awardables.js";
import type { Tx } from "./events.js";
import type { NoteableType } from "../notes/queries.js";

/** `ids`: the noteables' ids, or a subquery selecting them (keeps the statement small for many rows). */
export async function deleteNoteablesChildren(tx: Tx, type: NoteableType, ids: number[] | Prisma.Sql): Promise<void> {
  if (Array.isArray(ids) && !ids.length) return;
  const noteableIds = Array.isArray(ids) ? Prisma.join(ids) : ids;
  await deleteNotes(tx, Prisma.sql`SELECT "id" FROM "Note" WHERE "noteableType" = ${type} AND "noteableId" IN (${noteableIds})`);
  await tx.$executeRaw`DELETE FROM "AwardEmoji" WHERE "awardableType" = ${type} AND "awardableId" IN (${noteableIds})`;
  if (type === "Issue" || type === "Snippet") {
    await tx.$executeRaw`DELETE FROM "UserAgentDetail" WHERE "subjectType" = ${type} AND "subjectId" IN (${noteableIds})`;
  }
  await tx.$executeRaw`DELETE FROM "Event" WHERE "targetType" = ${type} AND "targetId" IN (${noteableIds})`;
}

/** Notes (by a subquery selecting their ids) with their reactions and the events naming them. */
export async function deleteNotes(tx: Tx, ids: Prisma.Sql): Promise<void> {
  await tx.$executeRaw`DELETE FROM "AwardEmoji" WHERE "awardableType" = 'Note' AND "awardableId" IN (${ids})`;
  await tx.$executeRaw`DELETE FROM "Event" WHERE "targetType" IN ('Note', 'DiscussionNote', 'DiffNote') AND "targetId" IN (${ids})`;
  await tx.$executeRaw`DELETE FROM "Note" WHERE "id" IN (${ids})`;
}

/** The reactions on the given awardables. */
export async function deleteReactionsOf(tx: Tx, awardableType: AwardableType, awardableIds: number[]): Promise<void> {
  if (awardableIds.length) await tx.awardEmoji.deleteMany({ where: { awardableType, awardableId: { in: awardableIds } } });
}

/** The contribution events naming one note (a comment deleted on its own). */
export async function deleteNoteEvents(tx: Tx, noteId: number): Promise<void> {
  await tx.event.deleteMany({ where: { targetType: { in: ["Note", "DiscussionNote", "DiffNote"] }, targetId: noteId } });
}
