import type { z } from "zod";
import type { AuthContext } from "@/lib/http/auth-context";
import type { CollectionQuery, CollectionSpec } from "./collection-query";
import type { Pagination } from "./envelope";

// A route is data: method, path, scope, schemas and a handler. The same table serves requests (lib/server/dispatch.ts),
// writes the OpenAPI document (lib/server/openapi.ts) and drives the security tests that run against every route.

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
export const HTTP_METHODS: HttpMethod[] = ["GET", "POST", "PATCH", "PUT", "DELETE"];

export type ResponseSpec =
  | { kind: "single"; status: 200 | 201; schema: z.ZodType }
  | { kind: "collection"; schema: z.ZodType }
  | { kind: "empty" }
  | { kind: "raw"; description: string }
  /** A download (CSV): the handler returns the body text. */
  | { kind: "text"; contentType: string; description: string };

/** The API version a request resolved to (lib/versions/resolve-version.ts fills in more). */
export interface RequestVersion {
  version: string;
  /** Headers every response of this request carries (deprecation notices, X-API-Version). */
  headers: Record<string, string>;
  warning?: string;
  contentType: string;
}

export interface RouteContext<P, Q, B> {
  requestId: string;
  /** null only on routes declared with `auth: "none"`. */
  auth: AuthContext;
  params: P;
  query: Q;
  body: B;
  version: RequestVersion;
  baseUrl: string;
  /** The caller's address (see lib/auth/client-ip.ts) and user agent, for audit entries. */
  client: { ip: string | null; userAgent: string | null };
}

export type CollectionResult = { data: unknown[]; pagination: Pagination };

export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** OpenAPI form: `/v1/products/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** "none" for public routes such as the OpenAPI document. */
  auth?: "api_key" | "none";
  /** Required scope, `resource:action`. */
  scope?: string;
  params?: P;
  query?: Q;
  /** Collection routes: filters, sort, fields and expand the query may use. */
  collection?: CollectionSpec;
  body?: B;
  /** Accepts `Idempotency-Key` (every authenticated POST does). */
  response: ResponseSpec;
  /** Error statuses the handler itself answers beyond those the pipeline's steps declare (402 on a declined card). */
  statuses?: Record<number, string>;
  handler: (ctx: RouteContext<z.infer<P>, any, z.infer<B>>) => Promise<unknown>;
}

export type AnyRoute = RouteSpec<any, any, any>;

export function defineRoute<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  spec: RouteSpec<P, Q, B> & {
    handler: (ctx: RouteContext<z.infer<P>, Q extends z.ZodType ? z.infer<Q> | CollectionQuery : never, z.infer<B>>) => Promise<unknown>;
  },
): AnyRoute {
  return spec as AnyRoute;
}
