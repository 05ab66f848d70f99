// The first branch pushed to an empty repository becomes the project's default branch when it is
// not the one the project was created with (Gitaly answers HEAD's branch, else the first branch
// there is), so a project created without initialize_with_readme takes whatever is pushed first.
import { BLANK_SHA, subscribe } from "../shared/events.js";

subscribe("push", async (tx, event) => {
  if (event.before !== BLANK_SHA || event.after === BLANK_SHA) return;
  const project = await tx.project.findUnique({ where: { id: event.projectId }, select: { defaultBranch: true } });
  if (!project || project.defaultBranch === event.branch) return;
  const others = await tx.branch.count({ where: { projectId: event.projectId, name: { not: event.branch } } });
  if (others === 0) await tx.project.update({ where: { id: event.projectId }, data: { defaultBranch: event.branch } });
});
