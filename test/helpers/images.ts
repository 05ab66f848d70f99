// Small, valid image files for avatar tests, built byte by byte (no image library needed).
import { crc32, deflateSync } from "node:zlib";

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 1x1 RGBA PNG of the given colour, with an optional tEXt chunk of `comment`. */
function png(rgba: [number, number, number, number], comment?: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter, no interlace
  const pixels = deflateSync(Buffer.from([0, ...rgba])); // filter byte + one pixel
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    ...(comment ? [pngChunk("tEXt", Buffer.concat([Buffer.from("Comment\0", "latin1"), comment]))] : []),
    pngChunk("IDAT", pixels),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export const redPng = () => png([255, 0, 0, 255]);
export const bluePng = () => png([0, 0, 255, 255]);

/** A valid 1x1 PNG of exactly `size` bytes, padded with a tEXt (comment) chunk. */
export function pngOfSize(size: number): Buffer {
  const overhead = png([0, 128, 0, 255], Buffer.alloc(0)).length;
  if (size < overhead) throw new Error(`a padded PNG has at least ${overhead} bytes`);
  const image = png([0, 128, 0, 255], Buffer.alloc(size - overhead, "x"));
  if (image.length !== size) throw new Error("padding miscalculated");
  return image;
}

/** A 1x1 baseline JPEG (JFIF, greyscale). */
export const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/" +
    "wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AVN//2Q==",
  "base64",
);

/** A 1x1 GIF89a. */
export const GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/** Not an image, whatever its name says. */
export const NOT_AN_IMAGE = Buffer.from("this is plain text pretending to be a PNG\n".repeat(4));
