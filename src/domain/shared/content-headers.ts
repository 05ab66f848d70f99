// How a file is sent raw (a repository blob, an upload): Workhorse's content headers, chosen from
// the first bytes of the content, so that nothing a user uploaded is rendered by the browser as a
// page of this site.
import { fileTypeFromBuffer } from "file-type";

export type Disposition = "inline" | "attachment";

/** What file-type reads to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

const TEXT_TYPE = "text/plain; charset=utf-8";
const SVG_TYPE = "image/svg+xml";
const BINARY_TYPE = "application/octet-stream";

/**
 * Workhorse's content headers for a blob (internal/headers/content_headers.go): SVG is sent as an
 * attachment, text of any kind as inline plain text, images, videos and PDFs inline with their
 * type, anything else as an octet-stream attachment.
 */
export async function rawTypeOf(head: Buffer): Promise<{ contentType: string; disposition: Disposition }> {
  if (isSvg(head)) return { contentType: SVG_TYPE, disposition: "attachment" };
  const mime = (await fileTypeFromBuffer(head))?.mime;
  if (mime && /^(image|video)\/|^application\/pdf$/.test(mime)) return { contentType: mime, disposition: "inline" };
  if (isText(head)) return { contentType: TEXT_TYPE, disposition: "inline" };
  return { contentType: BINARY_TYPE, disposition: "attachment" };
}

/** Bytes that Go's content sniffing (http.DetectContentType) takes as binary in the first 512. */
const BINARY_BYTE = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/;

function isText(head: Buffer): boolean {
  if (head.length >= 2 && ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe))) return true; // UTF-16 BOMs
  return !BINARY_BYTE.test(head.subarray(0, 512).toString("latin1"));
}

const HTML_COMMENT = /<!--[\s\S]*?-->/gi;
/** Go's `\s` is ASCII white space only. */
const SVG_START = /^[\t\n\f\r ]*(?:<\?xml[^>]*>[\t\n\f\r ]*)?(?:<!doctype svg[^>]*>[\t\n\f\r ]*)?<svg/i;

/**
 * Workhorse's SVG test: none of the first 24 bytes is binary (a control byte up to 8, or a byte
 * that is not ASCII), and with comments removed the text starts with an <svg> tag, after an XML
 * declaration and an SVG doctype if any.
 */
function isSvg(head: Buffer): boolean {
  if (head.length >= 24 && head.subarray(0, 24).some((byte) => byte <= 8 || byte >= 0x80)) return false;
  return SVG_START.test(head.toString("latin1").replace(HTML_COMMENT, ""));
}
