/**
 * The HTTP contract of tss-api and of the key share nodes: one declaration per route that the
 * servers bind (@svc/http `bindRoute`: validation, OpenAPI, the handler's return type) and the
 * SDK calls (paths and types). Browser-safe: nothing here imports Express.
 */
export { field, type Field, type Fields, type FieldStep, type FieldTest, type Location, type Message, type Presence, type RequestOf, type StringOptions, type ValueOf } from './fields.js';
export type { FromSchema, JsonSchema } from './json-schema.js';
export { defineContract, requestBodySchemaOf, type BodyOf, type HttpMethod, type ResponseOf, type RouteContract } from './route-contract.js';
export * from './tss-api/index.js';
export * from './keyshare-node/index.js';
