-- Uploaded user avatars (POST /users and PUT /users/:id take a multipart `avatar`), stored in
-- "StoredFile" as group and topic avatars are.
ALTER TABLE "User" ADD COLUMN "avatarPath" TEXT;
