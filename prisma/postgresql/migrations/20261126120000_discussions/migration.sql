-- Discussions (threads) of notes as GitLab keeps them: every note has a discussion id of 40 hex
-- digits (a thread's notes share it), GitLab's STI type ("DiscussionNote" for thread notes) and
-- the resolution of thread notes. Each row gets a random id by default (gen_random_uuid is built
-- in since PostgreSQL 13, no pgcrypto needed): the notes written so far each become a discussion
-- of their own, as individual notes are in GitLab.
ALTER TABLE "Note"
    ADD COLUMN "discussionId" TEXT NOT NULL
        DEFAULT substr(encode(sha256(convert_to(gen_random_uuid()::text || clock_timestamp()::text, 'UTF8')), 'hex'), 1, 40),
    ADD COLUMN "type" TEXT,
    ADD COLUMN "resolvedAt" TIMESTAMP(3),
    ADD COLUMN "resolvedById" INTEGER;

CREATE INDEX "Note_noteableType_noteableId_discussionId_idx" ON "Note"("noteableType", "noteableId", "discussionId");
