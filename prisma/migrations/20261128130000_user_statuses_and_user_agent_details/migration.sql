-- CreateTable
CREATE TABLE "UserStatus" (
    "userId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "emoji" TEXT NOT NULL DEFAULT 'speech_balloon',
    "message" TEXT,
    "availability" TEXT NOT NULL DEFAULT 'not_set',
    "clearStatusAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "UserStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UserAgentDetail" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "subjectType" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "userAgent" TEXT NOT NULL,
    "ipAddress" TEXT NOT NULL,
    "akismetSubmitted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "UserStatus_clearStatusAt_idx" ON "UserStatus"("clearStatusAt");

-- CreateIndex
CREATE UNIQUE INDEX "UserAgentDetail_subjectType_subjectId_key" ON "UserAgentDetail"("subjectType", "subjectId");

