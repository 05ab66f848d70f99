// Per-request batch loaders for list entities: one query per page for note counts and branches.
import DataLoader from "dataloader";
import type { DomainContext } from "../context.js";

interface MergeRequestLoaders {
  /** non-system notes of a merge request (user_notes_count) */
  userNotesCount: DataLoader<number, number>;
  /** head sha of `${projectId}:${branch}`, null when the branch does not exist */
  branchHead: DataLoader<string, string | null>;
}

const perRequest = new WeakMap<DomainContext, MergeRequestLoaders>();

export function mergeRequestLoaders(ctx: DomainContext): MergeRequestLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = { userNotesCount: notesCountLoader(ctx), branchHead: branchHeadLoader(ctx) };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}

export const branchKey = (projectId: number, name: string) => `${projectId}:${name}`;

function notesCountLoader(ctx: DomainContext) {
  return new DataLoader<number, number>(async (ids) => {
    const rows = await ctx.db.note.groupBy({
      by: ["noteableId"],
      where: { noteableType: "MergeRequest", noteableId: { in: [...ids] }, system: false },
      _count: { _all: true },
    });
    const counts = new Map(rows.map((row) => [row.noteableId, row._count._all]));
    return ids.map((id) => counts.get(id) ?? 0);
  });
}

function branchHeadLoader(ctx: DomainContext) {
  return new DataLoader<string, string | null>(async (keys) => {
    const wanted = keys.map((key) => {
      const at = key.indexOf(":");
      return { projectId: Number(key.slice(0, at)), name: key.slice(at + 1) };
    });
    const rows = await ctx.db.branch.findMany({ where: { OR: wanted }, select: { projectId: true, name: true, headSha: true } });
    const heads = new Map(rows.map((row) => [branchKey(row.projectId, row.name), row.headSha]));
    return keys.map((key) => heads.get(key) ?? null);
  });
}
