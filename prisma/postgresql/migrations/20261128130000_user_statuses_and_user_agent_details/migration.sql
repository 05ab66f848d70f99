-- CreateTable
CREATE TABLE "UserStatus" (
    "userId" INTEGER NOT NULL,
    "emoji" TEXT NOT NULL DEFAULT 'speech_balloon',
    "message" TEXT,
    "availability" TEXT NOT NULL DEFAULT 'not_set',
    "clearStatusAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserStatus_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "UserAgentDetail" (
    "id" SERIAL NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" INTEGER NOT NULL,
    "userAgent" TEXT NOT NULL,
    "ipAddress" TEXT NOT NULL,
    "akismetSubmitted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserAgentDetail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UserStatus_clearStatusAt_idx" ON "UserStatus"("clearStatusAt");

-- CreateIndex
CREATE UNIQUE INDEX "UserAgentDetail_subjectType_subjectId_key" ON "UserAgentDetail"("subjectType", "subjectId");

-- AddForeignKey
ALTER TABLE "UserStatus" ADD CONSTRAINT "UserStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

