// Path rules shared by groups, personal namespaces and projects.
export const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
export const VISIBILITIES = ["private", "internal", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export function pathProblems(path: string): string[] {
  const problems: string[] = [];
  if (!path) problems.push("can't be blank");
  else if (!PATH_PATTERN.test(path) || /\.(git|atom)$/i.test(path)) problems.push(PATH_FORMAT_MESSAGE);
  if (path.length > 255) problems.push("is too long (maximum is 255 characters)");
  return problems;
}

/** GitLab derives a path from a name: lower-case, non-path characters become dashes. */
export function pathFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "") || "project";
}

/** Ruby's Hash#inspect of model errors, as GitLab embeds it in "Failed to save group ..." texts. */
export function rubyErrorHash(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([key, messages]) => `:${key}=>${JSON.stringify(messages)}`);
  return `{${entries.join(", ")}}`;
}
