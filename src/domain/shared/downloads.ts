// A file the API sends as it is rather than as JSON (a raw blob, an archive): its headers and a
// way to read it, opened only when the body is sent (a HEAD request never opens it), as a stream
// for what may be large.
import type { Readable } from "node:stream";

export interface Download {
  /** Content-Type, Content-Disposition and any other header of the answer */
  headers: Record<string, string>;
  open(): Readable | Buffer;
}

/** Rails' ContentDisposition.format: an ASCII `filename` for old clients, the exact name in RFC 5987's `filename*`. */
export function contentDisposition(disposition: string, filename: string): string {
  const ascii = percentEscape(transliterate(filename), /[^ A-Za-z0-9!#$+.^_`|~-]/gu);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${percentEscape(filename, /[^A-Za-z0-9!#$&+.^_`|~-]/gu)}`;
}

const percentEscape = (text: string, escaped: RegExp) =>
  text.replace(escaped, (char) => [...Buffer.from(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""));

/** Letters I18n approximates other than by dropping an accent. */
const APPROXIMATIONS: Record<string, string> = {
  Æ: "AE", æ: "ae", Ð: "D", ð: "d", Ø: "O", ø: "o", Þ: "Th", þ: "th", ß: "ss", Đ: "D", đ: "d", Ł: "L", ł: "l", Œ: "OE", œ: "oe", ı: "i",
};

/** I18n.transliterate: accents dropped, a few letters spelled out, anything else non-ASCII "?". */
function transliterate(text: string): string {
  return [...text.normalize("NFC")]
    .map((char) => APPROXIMATIONS[char] ?? char.normalize("NFD").replace(/\p{M}/gu, ""))
    .map((char) => (/^[\x00-\x7F]*$/.test(char) ? char : "?"))
    .join("");
}
