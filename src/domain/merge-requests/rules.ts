// The model validations of a merge request and how GitLab's API answers them
// (API::Helpers::MergeRequestsHelpers#handle_merge_request_errors!): same source and target
// branch 422, another open MR for the branches 409, anything else 400 with the errors by field.
import { AppError, validationError } from "../../errors.js";
import type { Tx } from "../shared/events.js";
import { titleAndDescriptionErrors } from "../issues/rules.js";
import { isValidBranchName } from "../repository/refs.js";
import { branchHead } from "./branches.js";

type Errors = Record<string, string[]>;

export interface Candidate {
  id: number | null;
  projectId: number;
  title: string;
  description: string | null;
  sourceBranch: string;
  targetBranch: string;
  state: string;
}

const blank = (value: string | null | undefined) => !value || !value.trim();

/**
 * Validates in the model's order; `creating` adds the branch existence check, which GitLab runs
 * on create only (a later target_branch change may name a branch that does not exist).
 */
export async function validateMergeRequest(db: Tx, mr: Candidate, changed: { sourceBranch: boolean; targetBranch: boolean }, creating: boolean) {
  const errors: Errors = titleAndDescriptionErrors(mr.title, mr.description);
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if (blank(mr.sourceBranch)) add("source_branch", "can't be blank");
  if (blank(mr.targetBranch)) add("target_branch", "can't be blank");
  if (mr.sourceBranch === mr.targetBranch) throw unprocessable("You can't use same project/branch for source and target");
  if (changed.sourceBranch && mr.sourceBranch && !isValidBranchName(mr.sourceBranch)) add("source_branch", "is invalid");
  if (changed.targetBranch && mr.targetBranch && !isValidBranchName(mr.targetBranch)) add("target_branch", "is invalid");
  if (mr.state === "opened") await refuseDuplicate(db, mr);
  if (creating) {
    if (!blank(mr.sourceBranch) && !(await branchHead(db, mr.projectId, mr.sourceBranch))) add("source_branch", "does not exist");
    if (!blank(mr.targetBranch) && !(await branchHead(db, mr.projectId, mr.targetBranch))) add("target_branch", "does not exist");
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/** Another open merge request of the project for the same source and target branch: 409. */
async function refuseDuplicate(db: Tx, mr: Candidate): Promise<void> {
  const other = await db.mergeRequest.findFirst({
    where: {
      projectId: mr.projectId, sourceBranch: mr.sourceBranch, targetBranch: mr.targetBranch, state: "opened",
      ...(mr.id != null ? { NOT: { id: mr.id } } : {}),
    },
    orderBy: { id: "asc" },
    select: { iid: true },
  });
  if (other) throw new AppError(409, { message: [`Another open merge request already exists for this source branch: !${other.iid}`] });
}

const unprocessable = (message: string) => new AppError(422, { message: [message] });
