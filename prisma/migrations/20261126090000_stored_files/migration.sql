-- Uploaded avatars live in the database, which every server process reaches (a file written under
-- one server's uploads directory is missing on the others). Not cached: no CacheVersion triggers.
CREATE TABLE "StoredFile" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "content" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
