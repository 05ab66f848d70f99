// releaseCreate, releaseUpdate, releaseDelete and releaseAssetLinkCreate/Update/Delete as GitLab's
// graph has them (Mutations::Releases, Mutations::ReleaseAssetLinks): the same domain lookups,
// checks and writes as REST's /projects/:id/releases routes, errors in the payload's `errors`.
import { findLinkById, findReleaseOfLinks, findReleaseToWrite } from "../../domain/releases/queries.js";
import { checkLinkInput, checkLinkUpdate, createLink, deleteLink, updateLink } from "../../domain/releases/links.js";
import { checkReleaseInput, createRelease, deleteRelease, updateRelease } from "../../domain/releases/writes.js";
import { findProject } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { matchingIdOf, projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";
import { ReleaseAssetLinkRef, ReleaseAssetLinkTypeEnum, ReleaseRef } from "./types.js";

const ReleaseAssetLinkInput = builder.inputType("ReleaseAssetLinkInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    url: t.string({ required: true }),
    directAssetPath: t.string({ description: "Path of the asset under the release's downloads." }),
    linkType: t.field({ type: ReleaseAssetLinkTypeEnum, defaultValue: "other" }),
  }),
});

const ReleaseAssetsInput = builder.inputType("ReleaseAssetsInput", {
  fields: (t) => ({ links: t.field({ type: [ReleaseAssetLinkInput] }) }),
});

const releaseFields = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ required: true, description: "Full path of the project." }),
  tagName: t.string({ required: true }),
});

const timeOf = (value: Date | string | null | undefined) => (value instanceof Date ? value.toISOString() : value);

type LinkArgs = { name?: string | null; url?: string | null; directAssetPath?: string | null; linkType?: string | null };
const linkInputOf = (link: LinkArgs) => ({ name: link.name, url: link.url, direct_asset_path: link.directAssetPath, link_type: link.linkType });


payloadMutation("releaseCreate", {
  description: "Creates a release on a tag, the tag too from `ref` when it does not exist (Developers and above).",
  inputFields: (t) => ({
    ...releaseFields(t),
    ref: t.string({ description: "The commit, branch or tag to create the tag from." }),
    tagMessage: t.string({ description: "The message of the annotated tag created from ref." }),
    name: t.string(),
    description: t.string(),
    releasedAt: t.field({ type: "Time" }),
    milestones: t.stringList({ description: "Titles of the project's milestones." }),
    assets: t.field({ type: ReleaseAssetsInput }),
  }),
  write: async (input, ctx) => {
    const release = {
      tag_name: input.tagName, ref: input.ref, tag_message: input.tagMessage, name: input.name, description: input.description,
      released_at: timeOf(input.releasedAt as Date | null | undefined), milestones: input.milestones,
      assets: input.assets ? { links: input.assets.links?.map(linkInputOf) } : undefined,
    };
    checkReleaseInput(release);
    return createRelease(ctx, await findProject(ctx, projectPathOf(input.projectPath)), release);
  },
  returns: { field: "release", type: ReleaseRef },
});

payloadMutation("releaseUpdate", {
  description: "Changes a release's name, description, release date or milestones.",
  inputFields: (t) => ({
    ...releaseFields(t),
    name: t.string(),
    description: t.string(),
    releasedAt: t.field({ type: "Time" }),
    milestones: t.stringList({ description: "Titles of the project's milestones (empty: none)." }),
  }),
  write: async (input, ctx) => {
    const changes = { name: input.name, description: input.description, released_at: timeOf(input.releasedAt as Date | null | undefined), milestones: input.milestones };
    checkReleaseInput(changes);
    return updateRelease(ctx, await findReleaseToWrite(ctx, projectPathOf(input.projectPath), input.tagName), changes);
  },
  returns: { field: "release", type: ReleaseRef },
});

payloadMutation("releaseDelete", {
  description: "Deletes a release; its tag stays.",
  inputFields: (t) => releaseFields(t),
  write: async (input, ctx) => deleteRelease(ctx, await findReleaseToWrite(ctx, projectPathOf(input.projectPath), input.tagName)),
  returns: { field: "release", type: ReleaseRef },
});

const linkIdOf = (id: string | number) => matchingIdOf(id, "Releases::Link");

payloadMutation("releaseAssetLinkCreate", {
  description: "Adds an asset link to a release.",
  inputFields: (t) => ({
    ...releaseFields(t),
    name: t.string({ required: true }),
    url: t.string({ required: true }),
    directAssetPath: t.string(),
    linkType: t.field({ type: ReleaseAssetLinkTypeEnum, defaultValue: "other" }),
  }),
  write: async (input, ctx) => {
    const link = linkInputOf(input);
    checkLinkInput(link);
    const found = await findReleaseOfLinks(ctx, projectPathOf(input.projectPath), input.tagName);
    return { view: found, link: await createLink(ctx, found, link) };
  },
  returns: { field: "link", type: ReleaseAssetLinkRef },
});

payloadMutation("releaseAssetLinkUpdate", {
  description: "Changes an asset link of a release.",
  inputFields: (t) => ({
    id: t.id({ required: true, description: "The link's global id." }),
    name: t.string(),
    url: t.string(),
    directAssetPath: t.string(),
    linkType: t.field({ type: ReleaseAssetLinkTypeEnum }),
  }),
  write: async (input, ctx) => {
    const link = linkInputOf(input);
    checkLinkUpdate(link);
    const found = await findLinkById(ctx, linkIdOf(input.id));
    // a link update keeps the link's type when none is given (GitLab's graph, unlike REST)
    const updated = await updateLink(ctx, found, { ...link, link_type: link.link_type ?? found.link.linkType });
    const { link: _link, ...view } = found;
    return { view, link: updated };
  },
  returns: { field: "link", type: ReleaseAssetLinkRef },
});

payloadMutation("releaseAssetLinkDelete", {
  description: "Deletes an asset link of a release.",
  inputFields: (t) => ({ id: t.id({ required: true, description: "The link's global id." }) }),
  write: async (input, ctx) => {
    const found = await findLinkById(ctx, linkIdOf(input.id));
    const { link: _link, ...view } = found;
    return { view, link: await deleteLink(ctx, found) };
  },
  returns: { field: "link", type: ReleaseAssetLinkRef },
});

