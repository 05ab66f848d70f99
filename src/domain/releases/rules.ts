// Who may do what with releases (GitLab's read_release, create_release, update_release and
// destroy_release abilities) and the rules of a release's input and its asset links.
import { forbidden, paramError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import type { ProjectAccess } from "../shared/parents.js";
import { featureAvailable } from "../shared/project-features.js";
import { canPushCode } from "../repository/access.js";

/**
 * create_release, update_release and destroy_release: Developers and above of a project that is
 * not archived (and administrators), the same callers who may create the tag (no protected tags).
 */
export const canWriteReleases = (ctx: DomainContext, access: ProjectAccess) => canPushCode(ctx, access);

export function requireWriteReleases(ctx: DomainContext, access: ProjectAccess): void {
  if (!canWriteReleases(ctx, access)) throw forbidden();
}

/** download_code: what the Release entity shows of the tag (tag_name, commit, sources, evidences). */
export const canDownloadCode = (ctx: DomainContext, access: ProjectAccess) => featureAvailable(ctx, access, "repository");

export const LINK_TYPES = ["other", "runbook", "image", "package"] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** Releases::Link::FILEPATH_REGEX: a path from `/`, of word characters, `-`, `.` and `/`, ending in a letter or digit. */
const FILEPATH = /^\/(?:[-.\w]+\/?)*[\da-zA-Z]+$/;
const FILEPATH_MAX = 128;

/** An asset link as a release or the links API is given it. */
export interface LinkInput {
  name?: string | null;
  url?: string | null;
  direct_asset_path?: string | null;
  filepath?: string | null;
  link_type?: string | null;
}

/** The columns of a link's input (Releases::Links::Params): direct_asset_path wins over the deprecated filepath. */
export function linkData(input: LinkInput): { name?: string; url?: string; filepath?: string | null; linkType?: string } {
  const data: { name?: string; url?: string; filepath?: string | null; linkType?: string } = {};
  if (input.name != null) data.name = input.name;
  if (input.url != null) data.url = input.url;
  if (input.direct_asset_path !== undefined || input.filepath !== undefined) data.filepath = input.direct_asset_path ?? input.filepath ?? null;
  if (input.link_type != null) data.linkType = input.link_type;
  return data;
}

/** Grape's `values:` check of link_type. */
export function checkLinkType(type: string | null | undefined): void {
  if (type != null && !(LINK_TYPES as readonly string[]).includes(type)) throw paramError("link_type does not have a valid value");
}

/** AddressableUrlValidator with the schemes a release link may use. */
function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid URL";
  }
  if (!["http:", "https:", "ftp:"].includes(parsed.protocol)) return "is blocked: Only allowed schemes are http, https, ftp";
  if (!/^[a-z]+:\/\//i.test(url) || !parsed.hostname) return "must be a valid URL";
  return null;
}

/** A link's own validations (Releases::Link): each problem as `[attribute, message]`. */
export function linkProblems(link: { name?: string | null; url?: string | null; filepath?: string | null }): [string, string][] {
  const problems: [string, string][] = [];
  if (!link.url) problems.push(["url", "can't be blank"]);
  else {
    const problem = urlProblem(link.url);
    if (problem) problems.push(["url", problem]);
  }
  if (!link.name) problems.push(["name", "can't be blank"]);
  if (link.filepath) {
    if (!FILEPATH.test(link.filepath)) problems.push(["filepath", "is invalid"]);
    if (link.filepath.length > FILEPATH_MAX) problems.push(["filepath", `is too long (maximum is ${FILEPATH_MAX} characters)`]);
  }
  return problems;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** ActiveModel's full messages: "Url must be a valid URL". */
export const fullMessages = (problems: [string, string][]) => problems.map(([attribute, message]) => `${capitalized(attribute)} ${message}`);

/** Grape's DateTime param: an ISO 8601 time, else "<name> is invalid". */
export function parseTime(name: string, value: string | null | undefined): Date | undefined {
  if (value == null || value === "") return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw paramError(`${name} is invalid`);
  return time;
}

/** Release#upcoming_release?: released after now (whole seconds). */
export const isUpcoming = (release: { releasedAt: Date }, now: Date) => Math.floor(release.releasedAt.getTime() / 1000) > Math.floor(now.getTime() / 1000);

/** Release#historical_release?: released before it was created (whole seconds). */
export const isHistorical = (release: { releasedAt: Date; createdAt: Date }) =>
  Math.floor(release.releasedAt.getTime() / 1000) < Math.floor(release.createdAt.getTime() / 1000);
