// The repository model: branches, commits (paths only, no file contents) and protected branches.
export { initializeRepository } from "./initialize.js";
export { findBranch, listBranches, getBranch, createBranch, deleteBranch, type BranchView } from "./branches.js";
export { getCommitBySha, resolveCommit, commitsBetween, historyOrder, writeCommit, treeOf, type NewCommit } from "./commits.js";
export { pushBranch, type BranchUpdate } from "./push.js";
export { protectedBranchesMatching, type ProtectedBranchWithLevels } from "./protection-rules.js";
export { canPushToBranch, canMergeToBranch, findRepositoryProject } from "./access.js";
