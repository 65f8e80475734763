-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "customer_status" AS ENUM ('ACTIVE', 'SUSPENDED');

-- CreateEnum
CREATE TYPE "auth_type" AS ENUM ('EMAIL', 'GOOGLE', 'APPLE', 'TELEGRAM', 'X', 'DISCORD', 'OIDC');

-- CreateEnum
CREATE TYPE "curve" AS ENUM ('secp256k1', 'ed25519');

-- CreateEnum
CREATE TYPE "tss_session_kind" AS ENUM ('KEYGEN', 'SIGN_ED25519', 'TRIPLES', 'PRESIGN', 'SIGN_ECDSA', 'RESHARE');

-- CreateEnum
CREATE TYPE "tss_session_status" AS ENUM ('ACTIVE', 'COMPLETED', 'ABORTED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "tss_stage_status" AS ENUM ('IN_PROGRESS', 'COMPLETED', 'FAILED');

-- CreateEnum
CREATE TYPE "key_share_node_status" AS ENUM ('ACTIVE', 'INACTIVE');

-- CreateEnum
CREATE TYPE "wallet_node_status" AS ENUM ('ACTIVE', 'UNRECOVERABLE_DATA_LOSS', 'NOT_REGISTERED');

-- CreateEnum
CREATE TYPE "email_verification_purpose" AS ENUM ('USER_LOGIN', 'DASHBOARD_SIGNUP', 'PASSWORD_RESET');

-- CreateEnum
CREATE TYPE "pool_item_status" AS ENUM ('UNUSED', 'RESERVED', 'CONSUMED');

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "logo" BYTEA,
    "logo_mime_type" TEXT,
    "status" "customer_status" NOT NULL DEFAULT 'ACTIVE',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_dashboard_users" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "email_verified_at" TIMESTAMPTZ(3),
    "last_login_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "label" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admin_users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "admin_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "auth_type" "auth_type" NOT NULL,
    "provider_subject" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "curve" "curve" NOT NULL,
    "public_key" TEXT NOT NULL,
    "server_share_ciphertext" BYTEA NOT NULL,
    "server_share_key_id" TEXT NOT NULL,
    "seed_part_ciphertext" BYTEA NOT NULL,
    "seed_part_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tss_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "wallet_id" UUID,
    "kind" "tss_session_kind" NOT NULL,
    "status" "tss_session_status" NOT NULL DEFAULT 'ACTIVE',
    "state" JSONB NOT NULL DEFAULT '{}',
    "state_version" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "customer_id" UUID,
    "api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tss_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tss_stages" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "tss_stage_status" NOT NULL DEFAULT 'IN_PROGRESS',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "tss_stages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_share_nodes" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status" "key_share_node_status" NOT NULL DEFAULT 'ACTIVE',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "key_share_nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallet_key_share_node_statuses" (
    "wallet_id" UUID NOT NULL,
    "node_id" UUID NOT NULL,
    "status" "wallet_node_status" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "wallet_key_share_node_statuses_pkey" PRIMARY KEY ("wallet_id","node_id")
);

-- CreateTable
CREATE TABLE "email_verifications" (
    "id" UUID NOT NULL,
    "purpose" "email_verification_purpose" NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revoked_tokens" (
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revoked_tokens_pkey" PRIMARY KEY ("jti")
);

-- CreateTable
CREATE TABLE "witnessed_id_tokens" (
    "token_hash" CHAR(64) NOT NULL,
    "user_id" UUID,
    "auth_type" "auth_type" NOT NULL,
    "purpose" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "witnessed_id_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "triple_pool" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "material" BYTEA NOT NULL,
    "material_key_id" TEXT NOT NULL,
    "status" "pool_item_status" NOT NULL DEFAULT 'UNUSED',
    "reserved_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "consumed_by_session_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "triple_pool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "presignature_pool" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "material" BYTEA NOT NULL,
    "material_key_id" TEXT NOT NULL,
    "status" "pool_item_status" NOT NULL DEFAULT 'UNUSED',
    "reserved_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "consumed_by_session_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "presignature_pool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signature_audit_logs" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "session_id" UUID,
    "curve" "curve" NOT NULL,
    "message_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signature_audit_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tss_activation_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "signing_enabled" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tss_activation_settings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customers_email_key" ON "customers"("email");

-- CreateIndex
CREATE INDEX "customers_created_at_id_idx" ON "customers"("created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_dashboard_users_email_key" ON "customer_dashboard_users"("email");

-- CreateIndex
CREATE INDEX "customer_dashboard_users_customer_id_idx" ON "customer_dashboard_users"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_customer_id_created_at_idx" ON "api_keys"("customer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "admin_users_email_key" ON "admin_users"("email");

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_auth_type_provider_subject_key" ON "users"("auth_type", "provider_subject");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_public_key_key" ON "wallets"("public_key");

-- CreateIndex
CREATE INDEX "wallets_created_at_id_idx" ON "wallets"("created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_user_id_curve_key" ON "wallets"("user_id", "curve");

-- CreateIndex
CREATE INDEX "tss_sessions_user_id_status_idx" ON "tss_sessions"("user_id", "status");

-- CreateIndex
CREATE INDEX "tss_sessions_status_expires_at_idx" ON "tss_sessions"("status", "expires_at");

-- CreateIndex
CREATE INDEX "tss_sessions_created_at_id_idx" ON "tss_sessions"("created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "tss_stages_session_id_name_key" ON "tss_stages"("session_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "key_share_nodes_name_key" ON "key_share_nodes"("name");

-- CreateIndex
CREATE INDEX "wallet_key_share_node_statuses_node_id_idx" ON "wallet_key_share_node_statuses"("node_id");

-- CreateIndex
CREATE INDEX "email_verifications_email_purpose_created_at_idx" ON "email_verifications"("email", "purpose", "created_at");

-- CreateIndex
CREATE INDEX "email_verifications_expires_at_idx" ON "email_verifications"("expires_at");

-- CreateIndex
CREATE INDEX "revoked_tokens_expires_at_idx" ON "revoked_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "witnessed_id_tokens_expires_at_idx" ON "witnessed_id_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "witnessed_id_tokens_user_id_idx" ON "witnessed_id_tokens"("user_id");

-- CreateIndex
CREATE INDEX "triple_pool_wallet_id_status_created_at_idx" ON "triple_pool"("wallet_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "triple_pool_consumed_by_session_id_idx" ON "triple_pool"("consumed_by_session_id");

-- CreateIndex
CREATE INDEX "presignature_pool_wallet_id_status_created_at_idx" ON "presignature_pool"("wallet_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "presignature_pool_consumed_by_session_id_idx" ON "presignature_pool"("consumed_by_session_id");

-- CreateIndex
CREATE INDEX "signature_audit_logs_wallet_id_created_at_idx" ON "signature_audit_logs"("wallet_id", "created_at");

-- AddForeignKey
ALTER TABLE "customer_dashboard_users" ADD CONSTRAINT "customer_dashboard_users_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tss_sessions" ADD CONSTRAINT "tss_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tss_sessions" ADD CONSTRAINT "tss_sessions_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tss_sessions" ADD CONSTRAINT "tss_sessions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tss_sessions" ADD CONSTRAINT "tss_sessions_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tss_stages" ADD CONSTRAINT "tss_stages_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "tss_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_key_share_node_statuses" ADD CONSTRAINT "wallet_key_share_node_statuses_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_key_share_node_statuses" ADD CONSTRAINT "wallet_key_share_node_statuses_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "key_share_nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "witnessed_id_tokens" ADD CONSTRAINT "witnessed_id_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "triple_pool" ADD CONSTRAINT "triple_pool_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "triple_pool" ADD CONSTRAINT "triple_pool_consumed_by_session_id_fkey" FOREIGN KEY ("consumed_by_session_id") REFERENCES "tss_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "presignature_pool" ADD CONSTRAINT "presignature_pool_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "presignature_pool" ADD CONSTRAINT "presignature_pool_consumed_by_session_id_fkey" FOREIGN KEY ("consumed_by_session_id") REFERENCES "tss_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signature_audit_logs" ADD CONSTRAINT "signature_audit_logs_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signature_audit_logs" ADD CONSTRAINT "signature_audit_logs_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "tss_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

