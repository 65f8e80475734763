import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode } from '@svc/envelope';
import type { Fields } from './fields.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema fragment, as OpenAPI 3.1 uses it. */
export type JsonSchema = Record<string, unknown>;

/**
 * An authentication requirement: the middleware that enforces it and the OpenAPI
 * security scheme that documents it, declared together so they cannot disagree.
 */
export interface Guard {
  name: string;
  scheme: JsonSchema;
  middleware: RequestHandler;
}

export interface RouteDef {
  method: HttpMethod;
  /** Express path, e.g. `/tss/v1/user/check` or `/customer/get_customer/:customer_id`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** All guards must pass (logical AND) before validation runs: bearer-token guards first, then the others, each in order (see tokenFirst). */
  guards?: Guard[];
  /** Fields built with `field` (fields.ts): they validate the request and document it. */
  body?: Fields;
  query?: Fields;
  params?: Fields;
  /** Reject body fields the rules do not name (default true). */
  exactBody?: boolean;
  /** Request body content type; multipart routes bring their own parser in `before`. */
  contentType?: 'application/json' | 'multipart/form-data';
  /** Documentation of what fields cannot declare (e.g. uploaded files, nested wire objects). */
  bodyDocs?: Record<string, JsonSchema>;
  /** The whole documented request body, for a route whose body has several shapes its handler tells apart. */
  bodySchema?: JsonSchema;
  /** Schema of the envelope's `data` on success. */
  response?: JsonSchema;
  /** Success status (default 200). */
  status?: number;
  /** Error codes this route may answer with, for the documentation. */
  errors?: ErrorCode[];
  /** Middleware that runs after the guards and before validation (e.g. multer). */
  before?: RequestHandler[];
  /** Returns the envelope's `data`; throw AppError for failures. */
  handler: (req: Request, res: Response) => unknown;
}

/** Identity function that gives route literals their type. */
export function defineRoute(route: RouteDef): RouteDef {
  return route;
}
