/**
 * Reads a JWT's payload without verifying it. The SDK only uses this for scheduling (when does
 * the service JWT expire) and routing (which email to ask user/check about); every decision
 * that matters is the server's or the key share nodes', which verify the signature.
 */
export function readJwtClaims(token: string): { exp?: number; iat?: number; email?: string; iss?: string } {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const text = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims = JSON.parse(text) as Record<string, unknown>;
    return {
      ...(typeof claims.exp === 'number' ? { exp: claims.exp } : {}),
      ...(typeof claims.iat === 'number' ? { iat: claims.iat } : {}),
      ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
      ...(typeof claims.iss === 'string' ? { iss: claims.iss } : {}),
    };
  } catch {
    return {};
  }
}
