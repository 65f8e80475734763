/**
 * `@svc/client-sdk/wagmi`: the wallet as a wagmi connector. Its own entry point, so that only
 * apps that use wagmi need @wagmi/core.
 */
export { svcConnector, type SvcConnectorOptions } from './chains/ethereum/wagmi-connector.js';
