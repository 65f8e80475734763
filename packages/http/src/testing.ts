/** Test kit of the HTTP layer (import from `@svc/http/testing`): the OpenAPI-driven fuzz campaign. */
export { fuzzOpenApi, describeReport, campaignFindings, campaignSettings, tableDigest, validOf, type FuzzOptions, type FuzzReport, type FuzzSample } from './testing/openapi-fuzz.js';
export { hostileValue, hostilePathSegment, hostileHeaders } from './testing/hostile.js';
