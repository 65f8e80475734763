-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "curve" AS ENUM ('secp256k1', 'ed25519');

-- CreateTable
CREATE TABLE "node_identity" (
    "id" INTEGER NOT NULL,
    "public_key" CHAR(64) NOT NULL,
    "secret_key_ciphertext" BYTEA NOT NULL,
    "secret_key_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "node_identity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "id_token_commits" (
    "token_hash" CHAR(64) NOT NULL,
    "session_public_key" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "id_token_commits_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "used_nonces" (
    "nonce" VARCHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "used_nonces_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "key_shares" (
    "id" UUID NOT NULL,
    "auth_type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "curve" "curve" NOT NULL,
    "public_key" TEXT NOT NULL,
    "share_ciphertext" BYTEA NOT NULL,
    "share_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "key_shares_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "id_token_commits_expires_at_idx" ON "id_token_commits"("expires_at");

-- CreateIndex
CREATE INDEX "used_nonces_expires_at_idx" ON "used_nonces"("expires_at");

-- CreateIndex
CREATE INDEX "key_shares_auth_type_subject_idx" ON "key_shares"("auth_type", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "key_shares_curve_public_key_key" ON "key_shares"("curve", "public_key");

