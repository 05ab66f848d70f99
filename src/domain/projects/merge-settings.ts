// A project's merge request settings (GitLab's Project#merge_method and ProjectSetting): how
// merges write history, whether they squash, the commit message templates, and whether every
// thread must be resolved before a merge.
import { paramError } from "../../errors.js";
import type { Project } from "../../generated/prisma/client.js";

/** merge: a merge commit; rebase_merge: a merge commit on a source rebased onto the target; ff: no merge commit. */
export const MERGE_METHODS = ["merge", "rebase_merge", "ff"] as const;
export const SQUASH_OPTIONS = ["never", "always", "default_on", "default_off"] as const;

/** ProjectSetting's length limit of both templates. */
const TEMPLATE_MAX_LENGTH = 500;

export interface MergeSettingsInput {
  merge_method?: string | null;
  squash_option?: string | null;
  merge_commit_template?: string | null;
  squash_commit_template?: string | null;
  only_allow_merge_if_all_discussions_are_resolved?: boolean | null;
}

type MergeSettingsData = Partial<Pick<Project,
  "mergeMethod" | "squashOption" | "mergeCommitTemplate" | "squashCommitTemplate" | "onlyAllowMergeIfAllDiscussionsAreResolved">>;

/** Prisma data for the settings given (absent ones untouched); a 400 for a value GitLab refuses. */
export function mergeSettingsData(input: MergeSettingsInput): MergeSettingsData {
  const data: MergeSettingsData = {};
  if (input.merge_method != null) data.mergeMethod = oneOf(MERGE_METHODS, input.merge_method, "merge_method");
  if (input.squash_option != null) data.squashOption = oneOf(SQUASH_OPTIONS, input.squash_option, "squash_option");
  if (input.merge_commit_template !== undefined) data.mergeCommitTemplate = input.merge_commit_template;
  if (input.squash_commit_template !== undefined) data.squashCommitTemplate = input.squash_commit_template;
  if (input.only_allow_merge_if_all_discussions_are_resolved != null) {
    data.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  }
  return data;
}

/** The templates' length errors, keyed as GitLab's project_setting validation reports them. */
export function mergeSettingsErrors(input: MergeSettingsInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const name of ["merge_commit_template", "squash_commit_template"] as const) {
    if ((input[name]?.length ?? 0) > TEMPLATE_MAX_LENGTH) errors[`project_setting.${name}`] = [`is too long (maximum is ${TEMPLATE_MAX_LENGTH} characters)`];
  }
  return errors;
}

function oneOf<T extends string>(values: readonly T[], value: string, name: string): T {
  if (!(values as readonly string[]).includes(value)) throw paramError(`${name} does not have a valid value`);
  return value as T;
}

/** MergeRequest#squash_on_merge?: "always" and "never" overrule the merge request's own choice. */
export function squashOnMerge(project: Pick<Project, "squashOption">, requested: boolean): boolean {
  if (project.squashOption === "always") return true;
  if (project.squashOption === "never") return false;
  return requested;
}

/** Project#ff_merge_must_be_possible?: merges that need the source on top of the target. */
export const ffMergeMustBePossible = (project: Pick<Project, "mergeMethod">) => project.mergeMethod !== "merge";

