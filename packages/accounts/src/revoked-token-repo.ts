import type { ServiceClaims } from '@svc/auth';
import { isUniqueViolation, type PrismaClient } from '@svc/db';

/** Token revocation (logout, refresh): the `isRevoked` of @svc/auth `jwtGuard`, and `revoke`. */
export function tokenRevocation(db: PrismaClient) {
  return {
    async isRevoked(jti: string): Promise<boolean> {
      return (await db.revokedToken.findUnique({ where: { jti }, select: { jti: true } })) !== null;
    },
    /** Revokes a token until it would have expired anyway; revoking twice is not an error. */
    async revoke(claims: ServiceClaims): Promise<void> {
      try {
        await db.revokedToken.create({ data: { jti: claims.jti, expiresAt: new Date(claims.exp * 1000) } });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    },
  };
}

export type TokenRevocation = ReturnType<typeof tokenRevocation>;
