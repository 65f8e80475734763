/** The events of EIP-1193 and what each listener receives. */
export interface ProviderEvents {
  connect: [info: { chainId: string }];
  disconnect: [error: { code: number; message: string }];
  chainChanged: [chainId: string];
  accountsChanged: [accounts: string[]];
}
export type ProviderEvent = keyof ProviderEvents;
type Listener<E extends ProviderEvent> = (...args: ProviderEvents[E]) => void;

/**
 * `on` / `removeListener` as EIP-1193 names them. A listener that throws does not stop the
 * others, nor the request that emitted the event.
 */
export class ProviderEventEmitter {
  private readonly listeners = new Map<ProviderEvent, Set<unknown>>();

  on<E extends ProviderEvent>(event: E, listener: Listener<E>): this {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  removeListener<E extends ProviderEvent>(event: E, listener: Listener<E>): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  protected emit<E extends ProviderEvent>(event: E, ...args: ProviderEvents[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as Listener<E>)(...args);
      } catch (err) {
        // A dapp's listener bug must not break the wallet: reported as browsers report a listener's error.
        (globalThis as { reportError?: (e: unknown) => void }).reportError?.(err);
      }
    }
  }
}
