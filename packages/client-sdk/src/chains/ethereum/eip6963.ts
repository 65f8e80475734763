import type { RequestArguments } from './eip1193-provider.js';

/** EIP-6963's description of a wallet, shown by dapps in their wallet pickers. */
export interface EIP6963ProviderInfo {
  /** A UUIDv4 for this page load (generated when left out). */
  uuid: string;
  name: string;
  /** A data URI (RFC 2397) of a square image, at least 96×96: dapps render it as an <img>. */
  icon: string;
  /** Reverse-DNS name of the wallet maker (e.g. `com.example.wallet`), stable across loads. */
  rdns: string;
}

export interface EIP6963ProviderDetail<P = { request(args: RequestArguments): Promise<unknown> }> {
  info: EIP6963ProviderInfo;
  provider: P;
}

const RDNS = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/**
 * Announces the provider to dapps as EIP-6963 specifies: one `eip6963:announceProvider` event
 * now, and one again at each `eip6963:requestProvider` (dapps that load later ask). Returns a
 * function that stops answering. `target` is `window` in a browser.
 */
export function announceProvider<P extends { request(args: RequestArguments): Promise<unknown> }>(
  provider: P,
  info: Omit<EIP6963ProviderInfo, 'uuid'> & { uuid?: string },
  target: EventTarget = globalThis,
): () => void {
  if (!info.icon.startsWith('data:')) throw new RangeError('EIP-6963: the icon must be a data URI');
  if (!RDNS.test(info.rdns)) throw new RangeError('EIP-6963: rdns must be a reverse-DNS name such as com.example.wallet');
  // Frozen, as EIP-6963 requires, so that one dapp cannot alter what another receives.
  const detail: EIP6963ProviderDetail<P> = Object.freeze({
    info: Object.freeze({ uuid: info.uuid ?? crypto.randomUUID(), name: info.name, icon: info.icon, rdns: info.rdns }),
    provider,
  });
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  target.addEventListener('eip6963:requestProvider', announce);
  announce();
  return () => target.removeEventListener('eip6963:requestProvider', announce);
}
