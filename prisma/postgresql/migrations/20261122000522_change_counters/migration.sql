CREATE TABLE "ChangeCounter" (
    "key" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "ChangeCounter_pkey" PRIMARY KEY ("key")
);
