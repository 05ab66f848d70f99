// Avatar uploads as the real clients send them, and a check of the served file.
import { expect } from "vitest";
import type { App } from "../../src/app.js";

/** A multipart body byte for byte as python-gitlab 3.12 (requests-toolbelt) sends an avatar:
 * the fields, an always-present empty `file` part, then part `avatar` named avatar.png, no type. */
export function pythonMultipart(token: string | null, fields: Record<string, string>, avatar: Buffer | null) {
  const boundary = "6c29d8476b604a28b31cfa968dec7692";
  const part = (headers: string, content: Buffer | string) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
  const parts = [
    ...Object.entries(fields).map(([name, value]) => part(`Content-Disposition: form-data; name="${name}"`, value)),
    part('Content-Disposition: form-data; name="file"', ""),
    ...(avatar ? [part('Content-Disposition: form-data; name="avatar"; filename="avatar.png"', avatar)] : []),
  ];
  const headers: Record<string, string> = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
  if (token) headers["PRIVATE-TOKEN"] = token;
  return { headers, body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]) };
}

/** gitbeaker's FormData: the fields, then the image (Blob type, caller's filename) in part `file` unless told. */
export function gitbeakerForm(fields: Record<string, string>, image: Buffer, filename: string, type = "application/octet-stream", part = "file") {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(part, new Blob([new Uint8Array(image)], { type }), filename);
  return form;
}

/** The server serves exactly these bytes with this content type at `url`. */
export async function expectServed(app: App, url: string, bytes: Buffer, type: string) {
  const res = await app.fetch(new Request(url));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe(type);
  expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
}
