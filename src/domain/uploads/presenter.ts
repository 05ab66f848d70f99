// What GitLab shows of an upload: the markdown to paste (Entities::ProjectUpload), the file an
// administrator downloads, and the file a browser is served.
import { contentDisposition, type Download } from "../shared/downloads.js";
import { rawTypeOf, SNIFF_BYTES } from "../shared/content-headers.js";
import type { DomainContext } from "../shared/context.js";
import type { UploadRecord } from "./queries.js";
import { markdownLink, markdownName } from "./rules.js";

export interface UploadMarkdown {
  id: number;
  alt: string;
  url: string;
  full_path: string;
  markdown: string;
}

/** The relative URL markdown links to (resolved against the project's or group's page). */
export const secureUrl = (upload: UploadRecord) => `/uploads/${upload.secret}/${upload.filename}`;

/** Entities::ProjectUpload: the link text, the relative URL, the path by the parent's id, the markdown. */
export function uploadMarkdown(upload: UploadRecord): UploadMarkdown {
  const url = secureUrl(upload);
  const owner = upload.projectId !== null ? `project/${upload.projectId}` : `group/${upload.groupId}`;
  return {
    id: upload.id,
    alt: markdownName(upload.filename),
    url,
    full_path: `/-/${owner}/uploads/${upload.secret}/${upload.filename}`,
    markdown: markdownLink(upload.filename, url),
  };
}

const contentOf = async (ctx: DomainContext, upload: UploadRecord): Promise<Buffer> => {
  const row = await ctx.db.upload.findUniqueOrThrow({ where: { id: upload.id }, select: { content: true } });
  return Buffer.from(row.content);
};

/** The file as the API sends it: always an attachment. */
export async function uploadDownload(ctx: DomainContext, upload: UploadRecord): Promise<Download> {
  const content = await contentOf(ctx, upload);
  const { contentType } = await rawTypeOf(content.subarray(0, SNIFF_BYTES));
  return {
    headers: { "Content-Type": contentType, "Content-Length": String(content.length), "Content-Disposition": contentDisposition("attachment", upload.filename) },
    open: () => content,
  };
}

/** The file as a browser is served it: inline only what Workhorse sends inline (images, videos, PDFs, plain text). */
export async function servedUpload(ctx: DomainContext, upload: UploadRecord): Promise<Download> {
  const content = await contentOf(ctx, upload);
  const type = await rawTypeOf(content.subarray(0, SNIFF_BYTES));
  return {
    headers: { "Content-Type": type.contentType, "Content-Length": String(content.length), "Content-Disposition": contentDisposition(type.disposition, upload.filename) },
    open: () => content,
  };
}
