import type { HeaderReader } from "@/lib/http/header-reader";
import type { AuthContext } from "@/lib/http/auth-context";
import type { AnyRoute } from "@/lib/http/route";
import type { ApiError } from "@/lib/http/errors";
import type { ResolvedVersion } from "@/lib/versions/resolve-version";
import type { Admission } from "@/lib/limits/rate-limit";
import type { CommitScope } from "@/lib/db/commit-hook";
import type { SpendHold } from "@/lib/billing/spend-guard";
import type { SubscriptionEntry } from "@/lib/billing/rate-request";
import type { GatewayProduct } from "@/lib/gateway/gateway-product";
import type { IdempotencyClaim } from "./idempotency";

/** A request as the pipeline sees it, whichever front door (node:http, a Web `Request`) it came through. */
export interface ApiRequest {
  method: string;
  url: URL;
  headers: HeaderReader;
  /** The body as text; throws 413 PAYLOAD_TOO_LARGE past the limit. Read at most once. */
  readText(): Promise<string>;
  /** The origin links in responses use (PUBLIC_BASE_URL, else the address the client used). */
  baseUrl: string;
  /** Set by dispatchApi once matched: the route's pattern (`/v1/products/{id}`), the label GET /metrics counts by. */
  routePattern?: string;
}

/** What the pipeline answers: the front door writes it out. `body` is kept, as text, for the request log. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * Everything one request accumulates on its way through the pipeline's steps (lib/server/steps). A step reads
 * what earlier steps left and adds its own part; a step that answers early sets `response`.
 */
export interface RequestContext {
  readonly request: ApiRequest;
  readonly route: AnyRoute;
  /** Path parameters as matched, before validation. */
  readonly rawParams: Record<string, string>;
  /** Wall-clock time the request arrived (the injectable clock) and a monotonic start for latencies. */
  readonly at: Date;
  readonly started: number;
  requestId: string;
  /** Headers every answer carries (request id, version, rate limit); a step adds to them. */
  headers: Record<string, string>;
  ip: string | null;
  version: ResolvedVersion | null;
  auth: AuthContext | null;
  admission: Admission | null;
  params: unknown;
  query: unknown;
  body: unknown;
  rawBody: string;
  /** The Idempotency-Key this request claimed, and whether one of its transactions has committed. */
  idempotencyClaim: IdempotencyClaim | null;
  commitScope: CommitScope | null;
  /** The handler's return value, and the CPU-ish time it took (billed as compute). */
  result: unknown;
  computeMs: number;
  error: ApiError | null;
  response: ApiResponse | null;
  /** A gateway call's product (its slug resolved) and subscription (the entitlement step); null on /v1. */
  gatewayProduct: GatewayProduct | null;
  subscription: SubscriptionEntry | null;
  /** What the product call cost under its subscription (`X-Request-Cost`). */
  cost: number | null;
  /** What the product call reserved against prepaid credits and the spend cap (settled when it is rated). */
  spendHold: SpendHold | null;
}

export function createRequestContext(request: ApiRequest, route: AnyRoute, rawParams: Record<string, string>, at: Date): RequestContext {
  return {
    request,
    route,
    rawParams,
    at,
    started: performance.now(),
    requestId: "",
    headers: {},
    ip: null,
    version: null,
    auth: null,
    admission: null,
    params: undefined,
    query: undefined,
    body: undefined,
    rawBody: "",
    idempotencyClaim: null,
    commitScope: null,
    result: undefined,
    computeMs: 0,
    error: null,
    response: null,
    gatewayProduct: null,
    subscription: null,
    cost: null,
    spendHold: null,
  };
}
