// A new project's repository when created with initialize_with_readme: its default branch with one commit
// by the creator adding README.md (through the push path, so push hooks fire).
import type { Project, User } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, type Tx } from "../shared/events.js";
import { writeCommit } from "./commits.js";
import { pushBranch } from "./push.js";
import { applyActions } from "./tree.js";

export const INITIAL_COMMIT_MESSAGE = "Initial commit";

export async function initializeRepository(tx: Tx, project: Project, author: User, ctx: DomainContext): Promise<void> {
  const person = { name: author.name, email: author.email };
  const change = applyActions([], [{ action: "create", file_path: "README.md", content: `# ${project.name}\n` }]);
  const commit = await writeCommit(tx, {
    projectId: project.id,
    parentSha: null,
    message: INITIAL_COMMIT_MESSAGE,
    author: person,
    committer: person,
    at: ctx.now(),
    change,
  });
  await pushBranch(tx, ctx, { projectId: project.id, branch: project.defaultBranch, before: BLANK_SHA, after: commit.sha, commitShas: [commit.sha] });
}
