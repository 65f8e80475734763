import { KeyshareNodeClient, KeyshareNodeError, type Curve } from '@svc/keyshare-client';

/** How long tss-api waits for a node's answer before reporting it UNREACHABLE (docs/keyshare.md). */
export const DEFAULT_NODE_TIMEOUT_MS = 2000;

/** true / false: the node answered whether it holds the share; undefined: it did not answer (down, timeout, error). */
export type ProbeResult = boolean | undefined;

export type NodeProbe = (node: { name: string; endpoint: string }, wallet: { curve: Curve; publicKey: string }) => Promise<ProbeResult>;

/** Asks a node's public /keyshare/v1/check. Never throws: any failure is "no answer". */
export function httpNodeProbe(timeoutMs = DEFAULT_NODE_TIMEOUT_MS): NodeProbe {
  return async (node, wallet) => {
    try {
      return await new KeyshareNodeClient(node, { timeoutMs }).check(wallet);
    } catch (error) {
      if (error instanceof KeyshareNodeError) return undefined;
      throw error;
    }
  };
}
