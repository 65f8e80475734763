-- AlterEnum
ALTER TYPE "pool_item_status" ADD VALUE 'DISCARDED';

