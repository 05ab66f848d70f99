// Who may do what with markdown uploads (GitLab's upload_file, admin_upload, destroy_upload and
// read_upload abilities), and the file names and links GitLab gives them.
import path from "node:path";
import { AccessLevel } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { forbidden } from "../../errors.js";

/** `admin_upload` / `destroy_upload`: listing uploads, fetching one by id, deleting: Maintainers and above. */
export function requireAdministerUploads(ctx: DomainContext, parent: GroupOrProjectAccess): void {
  if (!isAdmin(ctx.actor) && parent.level < AccessLevel.maintainer) throw forbidden();
}

/** CarrierWave's sanitized file name: the base name with anything but word characters, `.`, `-` and `+` turned into `_`. */
export function sanitizedFilename(name: string): string {
  return path.posix.basename(name.replace(/\\/g, "/")).replace(/[^\p{L}\p{M}\p{N}\p{Pc}.+-]/gu, "_");
}

const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico", "webp"];
const VIDEO_EXTENSIONS = ["mp4", "m4v", "mov", "webm", "ogv"];
const AUDIO_EXTENSIONS = ["mp3", "oga", "ogg", "spx", "wav"];

const extensionOf = (filename: string) => path.extname(filename).slice(1).toLowerCase();
const isImageOrVideo = (filename: string) => [...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS].includes(extensionOf(filename));
/** Gitlab::FileTypeDetection#embeddable?: shown in place by markdown (`![...]`). */
const isEmbeddable = (filename: string) => isImageOrVideo(filename) || AUDIO_EXTENSIONS.includes(extensionOf(filename));

/** FileMarkdownLinkBuilder#markdown_name: an image's or a video's name without its extension, any other file's whole name. */
export function markdownName(filename: string): string {
  return isImageOrVideo(filename) ? path.basename(filename, path.extname(filename)) : filename;
}

/** FileMarkdownLinkBuilder#markdown_link: `[name](url)`, with `!` before what markdown embeds. */
export function markdownLink(filename: string, url: string): string {
  return `${isEmbeddable(filename) ? "!" : ""}[${markdownName(filename).replace(/]/g, "\\]")}](${url})`;
}
