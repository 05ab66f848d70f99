// Uploaded avatars are rows of StoredFile (src/domain/shared/avatars.ts): what the tests check instead of
// files on disk.
import { BASE_URL, type TestApp } from "./app.js";

const UPLOADS = `${BASE_URL}/uploads/-/system/`;

/** An avatar_url's path under /uploads/-/system/ (the row's key). */
export const storedPathOf = (avatarUrl: string) => (avatarUrl.startsWith(UPLOADS) ? avatarUrl.slice(UPLOADS.length) : avatarUrl);

/** The stored bytes behind an avatar_url (or its relative path); null when there is no row. */
export async function storedAvatar(t: Pick<TestApp, "services">, avatarUrl: string): Promise<Buffer | null> {
  const row = await t.services.db.storedFile.findUnique({ where: { path: storedPathOf(avatarUrl) } });
  return row ? Buffer.from(row.content) : null;
}
