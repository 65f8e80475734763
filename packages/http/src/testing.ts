/** Test kit of the HTTP layer (import from `@svc/http/testing`): the OpenAPI-driven fuzz campaign. */
export { fuzzOpenApi, describeReport, campaignFindings, campaignSettings, tableDigest, validOf, type FuzzOptions, type FuzzReport, type FuzzSample } from './testing/openapi-fuzz.js';
export { hostileValue, hostilePathSegment, hostileHeaders } from './testing/hostile.js';
export { checkEveryResponse, responseChecker } from './testing/response-check.js';
export { observeResponses, type ResponseObserver } from './response-observer.js';
