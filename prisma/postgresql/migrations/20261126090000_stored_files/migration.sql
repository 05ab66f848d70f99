-- Uploaded avatars live in the database, which every server process reaches (a file written under
-- one server's uploads directory is missing on the others). Not cached: no CacheVersion triggers.
CREATE TABLE "StoredFile" (
    "path" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("path")
);
