CREATE TABLE "ChangeCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
