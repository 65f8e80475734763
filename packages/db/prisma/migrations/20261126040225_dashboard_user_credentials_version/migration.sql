-- Credentials version of dashboard accounts (bumped by a password reset; customer JWTs carry the
-- value they were issued under). Existing rows start at 0, the value a token issued before this
-- column existed is counted as, so live sessions survive the upgrade until the next reset.
-- A constant default: PostgreSQL adds the column without rewriting the table.

-- AlterTable
ALTER TABLE "customer_dashboard_users" ADD COLUMN     "credentials_version" INTEGER NOT NULL DEFAULT 0;
