// Creating, changing and deleting topics: administrators only. Names are unique
// case-insensitively per organization; avatars work exactly as group avatars.
import { validationError } from "../../errors.js";
import type { Topic } from "../../generated/prisma/client.js";
import { requireAdmin } from "../shared/guards.js";
import { changeAvatar, readAvatarArg, removeAvatarFile, type FileUpload } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { DEFAULT_ORGANIZATION_ID } from "./assignments.js";
import { requireOrganization } from "./queries.js";

export interface TopicInput {
  name?: string | null;
  title?: string | null;
  description?: string | null;
  /** an upload sets the avatar, null removes it */
  avatar?: Promise<FileUpload> | null;
}

type Errors = Record<string, string[]>;

/** `/\R/`: any line break Ruby knows (\n, \v, \f, \r, NEL, LINE and PARAGRAPH SEPARATOR). */
const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;

const NON_ASCII = /[^\x00-\x7F]/;

const MAX_NAME = 255;

const MAX_TITLE = 255;

const MAX_DESCRIPTION = 1024;

const length = (value: string) => [...value].length;

const blank = (value: string | null | undefined) => !value || !value.trim();

const tooLong = (max: number) => `is too long (maximum is ${max} characters)`;

/**
 * The model's validations, in the order Projects::Topic declares them (the avatar's come first,
 * from Avatarable); an attribute's key appears where its first error does, as in Rails' hash.
 * `current` is the topic being updated (null on create).
 */
async function topicErrors(
  ctx: DomainContext,
  values: { name: string; title: string; description: string | null; organizationId: number },
  current: Topic | null,
  avatarErrors: Errors,
): Promise<Errors> {
  const errors: Errors = { ...avatarErrors };
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  const { name, title, description } = values;
  if (blank(name)) add("name", "can't be blank");
  if (length(name) > MAX_NAME) add("name", tooLong(MAX_NAME));
  if (description != null && length(description) > MAX_DESCRIPTION) add("description", tooLong(MAX_DESCRIPTION));
  if (!current || current.name !== name) {
    if (await nameTaken(ctx, name, values.organizationId, current)) add("name", "has already been taken");
    if (!blank(name) && LINE_BREAK.test(name)) add("name", "has characters that are not allowed");
    else if (!blank(name) && NON_ASCII.test(name)) add("name", "must only include ASCII characters");
  }
  if (!current) {
    // title is validated on create only, as GitLab does
    if (blank(title)) add("title", "can't be blank");
    if (length(title) > MAX_TITLE) add("title", tooLong(MAX_TITLE));
  }
  return errors;
}

async function nameTaken(ctx: DomainContext, name: string, organizationId: number, current: Topic | null): Promise<boolean> {
  const clash = await ctx.db.topic.findFirst({
    where: { organizationId, nameLower: name.toLowerCase(), ...(current ? { NOT: { id: current.id } } : {}) },
    select: { id: true },
  });
  return !!clash;
}

const nameTakenError = () => validationError({ name: ["has already been taken"] });

/** A concurrent save of the same name loses on the unique index: GitLab's uniqueness error. */
async function saving<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw nameTakenError();
    throw error;
  }
}

export async function createTopic(
  ctx: DomainContext,
  input: TopicInput & { name: string; title: string; organization_id?: number | null },
): Promise<Topic> {
  requireAdmin(ctx);
  const organizationId = requireOrganization(input.organization_id ?? DEFAULT_ORGANIZATION_ID);
  const avatar = await readAvatarArg(input.avatar);
  const values = { name: input.name, title: input.title, description: input.description ?? null, organizationId };
  const errors = await topicErrors(ctx, values, null, avatar.errors);
  if (Object.keys(errors).length) throw validationError(errors);
  return saving(() =>
    changeAvatar(ctx, "topic", null, avatar.next, (storeAvatar) =>
      ctx.db.$transaction(async (tx) => {
        const created = await tx.topic.create({
          data: { organizationId, name: values.name, nameLower: values.name.toLowerCase(), title: values.title, description: values.description },
        });
        const avatarPath = await storeAvatar(tx, created.id);
        return avatarPath ? tx.topic.update({ where: { id: created.id }, data: { avatarPath } }) : created;
      }),
    ),
  );
}

/**
 * PUT /topics/:id (the topic found after requireAdmin): every field optional; an empty or null
 * avatar removes the avatar.
 */
export async function updateTopic(ctx: DomainContext, topic: Topic, input: TopicInput): Promise<Topic> {
  requireAdmin(ctx);
  const avatar = await readAvatarArg(input.avatar);
  const values = {
    name: input.name ?? topic.name,
    title: input.title ?? topic.title,
    description: input.description !== undefined && input.description !== null ? input.description : topic.description,
    organizationId: topic.organizationId,
  };
  const errors = await topicErrors(ctx, values, topic, avatar.errors);
  if (Object.keys(errors).length) throw validationError(errors);
  return saving(() =>
    changeAvatar(ctx, "topic", topic.avatarPath, avatar.next, async (storeAvatar) => {
      const avatarPath = await storeAvatar(ctx.db, topic.id);
      return ctx.db.topic.update({
        where: { id: topic.id },
        data: { name: values.name, nameLower: values.name.toLowerCase(), title: values.title, description: values.description, avatarPath },
      });
    }),
  );
}

/**
 * `destroy_conditionally!`: 412 when the topic changed after If-Unmodified-Since; the project
 * assignments go with the topic (the projects keep their other topics). The topic is found after
 * requireAdmin.
 */
export async function deleteTopic(ctx: DomainContext, topic: Topic, unmodifiedSince?: string | null): Promise<boolean> {
  requireAdmin(ctx);
  assertUnmodifiedSince(topic.updatedAt, unmodifiedSince);
  await ctx.db.$transaction([
    ctx.db.projectTopic.deleteMany({ where: { topicId: topic.id } }),
    ctx.db.topic.delete({ where: { id: topic.id } }),
  ]);
  await removeAvatarFile(ctx, topic.avatarPath);
  return true;
}
