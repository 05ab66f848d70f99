// Grape's parameter rules of the project snippet endpoints (lib/api/project_snippets.rb and
// Helpers::SnippetsHelpers), checked in declaration order with Grape's texts. Grape groups the
// errors by attribute (in order of first appearance) and drops repeated messages.
import { paramError } from "../../errors.js";
import { VISIBILITIES } from "../shared/paths.js";

export interface SnippetFileInput {
  file_path?: string | null;
  content?: string | null;
}

export interface SnippetFileActionInput extends SnippetFileInput {
  action?: string | null;
  previous_path?: string | null;
}

export interface SnippetCreateInput {
  title?: string | null;
  description?: string | null;
  visibility?: string | null;
  files?: SnippetFileInput[] | null;
  content?: string | null;
  file_name?: string | null;
}

export interface SnippetUpdateInput {
  content?: string | null;
  description?: string | null;
  file_name?: string | null;
  title?: string | null;
  visibility?: string | null;
  files?: SnippetFileActionInput[] | null;
}

export const FILE_ACTIONS = ["create", "update", "delete", "move"] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

class ParamProblems {
  private readonly byAttribute = new Map<string, string[]>();

  add(attribute: string, message: string): void {
    const messages = this.byAttribute.get(attribute) ?? [];
    if (!messages.includes(message)) messages.push(message);
    this.byAttribute.set(attribute, messages);
  }

  throwAny(): void {
    const texts = [...this.byAttribute].flatMap(([attribute, messages]) => messages.map((m) => `${attribute} ${m}`));
    if (texts.length) throw paramError(texts.join(", "));
  }
}

const given = (value: unknown) => value !== undefined && value !== null;
/** Ruby's `blank?` on a string param. */
export const isBlank = (value: string | null | undefined) => !value || value.trim() === "";

/** Gitlab::PathTraversal plus the absolute-path check of the `file_path` validator. */
const TRAVERSAL = /(^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n)/;
const isValidFilePath = (path: string) => !TRAVERSAL.test(path) && !path.startsWith("/");

function requireValue(problems: ParamProblems, name: string, value: string | null | undefined): void {
  if (!given(value)) problems.add(name, "is missing");
}

function notBlank(problems: ParamProblems, name: string, value: string | null | undefined, required: boolean): void {
  if ((required || given(value)) && isBlank(value)) problems.add(name, "is empty");
}

function filePath(problems: ParamProblems, name: string, value: string | null | undefined): void {
  if (given(value) && !isValidFilePath(value!)) problems.add(name, "should be a valid file path");
}

function visibility(problems: ParamProblems, value: string | null | undefined, required: boolean): void {
  if (!(required || given(value))) return;
  if (!(VISIBILITIES as readonly string[]).includes(value ?? "")) problems.add("visibility", "does not have a valid value");
}

/** `mutually_exclusive` / `exactly_one_of` / `at_least_one_of` over the params present. */
function present(input: object, names: string[]): string[] {
  return names.filter((name) => given((input as Record<string, unknown>)[name]));
}

/** POST: title, visibility, and exactly one of `files` or `content` (+ `file_name`). */
export function checkCreateParams(input: SnippetCreateInput): void {
  const problems = new ParamProblems();
  requireValue(problems, "title", input.title);
  notBlank(problems, "title", input.title, true);
  requireValue(problems, "visibility", input.visibility);
  visibility(problems, input.visibility, true);
  (input.files ?? []).forEach((file, i) => {
    const name = (field: string) => `files[${i}][${field}]`;
    requireValue(problems, name("file_path"), file.file_path);
    filePath(problems, name("file_path"), file.file_path);
    notBlank(problems, name("file_path"), file.file_path, true);
    requireValue(problems, name("content"), file.content);
    notBlank(problems, name("content"), file.content, true);
  });
  notBlank(problems, "content", input.content, false);
  if (given(input.content)) requireValue(problems, "file_name", input.file_name);
  const either = present(input, ["files", "content"]);
  if (either.length > 1) problems.add(either.join(", "), "are mutually exclusive");
  if (either.length === 0) problems.add("files, content", "are missing, exactly one parameter must be provided");
  problems.throwAny();
}

/** PUT: at least one change; `files` excludes `content` and `file_name`; each file names its action. */
export function checkUpdateParams(input: SnippetUpdateInput): void {
  const problems = new ParamProblems();
  notBlank(problems, "content", input.content, false);
  notBlank(problems, "title", input.title, false);
  visibility(problems, input.visibility, false);
  (input.files ?? []).forEach((file, i) => {
    const name = (field: string) => `files[${i}][${field}]`;
    requireValue(problems, name("action"), file.action);
    if (!(FILE_ACTIONS as readonly string[]).includes(file.action ?? "")) problems.add(name("action"), "does not have a valid value");
    filePath(problems, name("file_path"), file.file_path);
    filePath(problems, name("previous_path"), file.previous_path);
  });
  for (const other of ["content", "file_name"]) {
    const both = present(input, ["files", other]);
    if (both.length > 1) problems.add(both.join(", "), "are mutually exclusive");
  }
  const changes = ["content", "description", "files", "file_name", "title", "visibility"];
  if (present(input, changes).length === 0) problems.add(changes.join(", "), "are missing, at least one parameter must be provided");
  problems.throwAny();
}
