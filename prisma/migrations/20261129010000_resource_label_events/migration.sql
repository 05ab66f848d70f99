-- GitLab's resource_label_events: a label added to or removed from an issue or a merge request.
-- CreateTable
CREATE TABLE "ResourceLabelEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER,
    "mergeRequestId" INTEGER,
    "labelId" INTEGER,
    "action" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ResourceLabelEvent_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResourceLabelEvent_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResourceLabelEvent_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ResourceLabelEvent_issueId_idx" ON "ResourceLabelEvent"("issueId");

-- CreateIndex
CREATE INDEX "ResourceLabelEvent_mergeRequestId_idx" ON "ResourceLabelEvent"("mergeRequestId");

-- CreateIndex
CREATE INDEX "ResourceLabelEvent_labelId_idx" ON "ResourceLabelEvent"("labelId");
