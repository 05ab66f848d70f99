// Who may read and manage milestones (GitLab's read_milestone and admin_milestone abilities), and
// the model's rules on a milestone's values (Timebox and Milestone validations, with the API's
// error text).
import { AppError, forbidden } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { featureAvailable } from "../shared/project-features.js";

/**
 * `read_milestone`: whoever may see the group; on a project, whoever may see it while its issues
 * or its merge requests are open to them (ProjectPolicy prevents both abilities when neither is).
 */
export function canReadMilestones(ctx: DomainContext, parent: GroupOrProjectAccess): boolean {
  if ("group" in parent) return true;
  return featureAvailable(ctx, parent, "issues") || featureAvailable(ctx, parent, "merge_requests");
}

/** `admin_milestone`: Planners, Reporters and above (GitLab 15.0 lowered it from Developer), and administrators. */
export function canAdminMilestones(ctx: DomainContext, parent: GroupOrProjectAccess): boolean {
  if (!canReadMilestones(ctx, parent)) return false;
  return isAdmin(ctx.actor) || parent.level >= AccessLevel.planner;
}

export function requireReadMilestones(ctx: DomainContext, parent: GroupOrProjectAccess): void {
  if (!canReadMilestones(ctx, parent)) throw forbidden();
}

export function requireAdminMilestones(ctx: DomainContext, parent: GroupOrProjectAccess): void {
  if (!canAdminMilestones(ctx, parent)) throw forbidden();
}

/**
 * A date as Rails casts a string into a date column: `YYYY-MM-DD` (a time after it is ignored)
 * when it names a real day, otherwise none (GitLab stores nothing rather than refusing).
 */
export function milestoneDate(value: string | null | undefined): string | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T ])/.exec((value ?? "").trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * Timebox#title=: the title without HTML tags (Sanitize.clean), entities unescaped, and stripped
 * (strip_attributes); a blank title leaves none.
 */
export function cleanTitle(value: string | null | undefined): string | null {
  if (value == null || !value.trim()) return null;
  const text = value
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")
    .trim();
  return text || null;
}

export type MilestoneErrors = Record<string, string[]>;

/** The values' own validations, by attribute (title present, due date after the start date). */
export function valueErrors(values: { title: string | null; startDate: string | null; dueDate: string | null }): MilestoneErrors {
  const errors: MilestoneErrors = {};
  if (!values.title) errors.title = ["can't be blank"];
  if (values.startDate && values.dueDate && values.dueDate <= values.startDate) errors.due_date = ["must be greater than start date"];
  return errors;
}

export const TITLE_TAKEN = "already being used for another group or project milestone.";

/**
 * The API's answer to an invalid milestone: 400 with `Failed to create milestone` (or update) and
 * the model's errors as Ruby prints a hash of symbols to lists.
 */
export function milestoneInvalid(verb: "create" | "update", errors: MilestoneErrors): AppError {
  const printed = Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(", ")}]`);
  return new AppError(400, { message: `Failed to ${verb} milestone {${printed.join(", ")}}` });
}
