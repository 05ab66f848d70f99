// A new project's repository: an empty bare repository made with the project (a directory left
// by an earlier project row with the same id, one that was rolled back, is replaced), and with
// initialize_with_readme its default branch with one commit by the creator adding README.md,
// through the one ref-update path (so push hooks fire).
import type { Project, User } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA } from "../shared/events.js";
import { signature } from "./git.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "./ref-updates.js";

export const INITIAL_COMMIT_MESSAGE = "Initial commit";

export async function createRepository(ctx: DomainContext, project: Pick<Project, "id" | "defaultBranch">): Promise<void> {
  await ctx.git.remove(project.id);
  await ctx.git.create(project.id, project.defaultBranch);
}

export async function initializeRepository(ctx: DomainContext, project: Project, author: User): Promise<void> {
  await withRepository(ctx, project.id, async (repo) => {
    const readme = await repo.writeBlob(Buffer.from(`# ${project.name}\n`));
    const tree = await repo.writeTree([{ mode: "100644", type: "blob", name: "README.md", sha: readme }]);
    const person = signature(author, ctx.now());
    const commit = await repo.writeCommit({ tree, parents: [], author: person, committer: person, message: INITIAL_COMMIT_MESSAGE });
    await moveRefs(ctx, project.id, [{ ref: `${BRANCH_PREFIX}${project.defaultBranch}`, oldSha: BLANK_SHA, newSha: commit }], { actorId: author.id });
  });
}
