// Shared helpers for the API integration tests: a tiny HTTP client for the server under test (BASE_URL)
// and seeding of a fresh business per test, so test files run in parallel without seeing each other.
import { bootstrapBusiness, type Plan } from "@/lib/businesses/bootstrap-business";
import "./close-connections";
import { serverConformance } from "./openapi-conformance";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${opts.base ?? BASE_URL}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // Every response of the server under test must be one its OpenAPI document declares (tests/helpers/openapi-conformance.ts).
  const base = opts.base ?? BASE_URL;
  if (base === BASE_URL && method !== "HEAD" && method !== "OPTIONS") {
    const mismatch = (await serverConformance(BASE_URL)).check(method, res.url || `${base}${path}`, res.status, res.headers, text);
    if (mismatch) throw new Error(`OpenAPI conformance: ${mismatch}`);
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A client bound to one key. */
export function client(key: string, base?: string) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>("GET", path, { key, headers, base }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>("POST", path, { key, body, headers, base }),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>("PATCH", path, { key, body, headers, base }),
    delete: <T = any>(path: string, headers?: Record<string, string>) => request<T>("DELETE", path, { key, headers, base }),
  };
}

let counter = 0;

/** A new business (enterprise plan unless told, so rate limits stay out of the way) with its default project and two
 * full-access keys, written straight to the test database. */
export async function seedBusiness(plan: Plan = "enterprise") {
  const seeded = await bootstrapBusiness(`Test business ${process.pid}-${++counter}`, plan);
  return { ...seeded, test: client(seeded.testKey), live: client(seeded.liveKey) };
}

/** Asserts the spec's error envelope and returns its error object. */
export function expectError(res: ApiResponse, status: number, code: string) {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 500)}`);
  }
  if (typeof res.body.meta?.requestId !== "string" || !res.body.meta.requestId.startsWith("req_")) {
    throw new Error(`error envelope without meta.requestId: ${res.text.slice(0, 300)}`);
  }
  return res.body.error as {
    type: string;
    code: string;
    message: string;
    field?: string;
    suggestion?: string;
    documentation?: string;
    [k: string]: unknown;
  };
}

export type ApiClient = ReturnType<typeof client>;

/** Creates a product through the API and returns its `data`; anything but a 201 fails the calling test. */
export async function createProduct(api: ApiClient, body: Record<string, unknown> = {}) {
  const res = await api.post("/v1/products", { name: "Product", type: "API", ...body });
  if (res.status !== 201) throw new Error(`creating a product: expected 201, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data as { id: string; name: string; type: string; createdAt: string; updatedAt: string; [k: string]: any };
}

/** Follows `pagination.nextCursor` from `path` to the end; returns every item id in order and the pages seen. */
export async function collectAll(api: ApiClient, path: string, maxPages = 100) {
  const ids: string[] = [];
  const pages: any[] = [];
  let url = path;
  for (let i = 0; i < maxPages; i++) {
    const res = await api.get(url);
    if (res.status !== 200) throw new Error(`GET ${url}: expected 200, got ${res.status} ${res.text.slice(0, 300)}`);
    pages.push(res.body);
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
    if (!res.body.pagination.hasMore) return { ids, pages };
    const sep = path.includes("?") ? "&" : "?";
    url = `${path}${sep}cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`;
  }
  throw new Error(`more than ${maxPages} pages at ${path}`);
}

/** The spec's error envelope, member by member: error {type, code, message, documentation} and meta {timestamp, requestId}. */
export function assertErrorEnvelope(res: ApiResponse) {
  const where = `${res.status} ${res.text.slice(0, 300)}`;
  const e = res.body?.error;
  if (!e || typeof e !== "object") throw new Error(`no error object: ${where}`);
  for (const k of ["type", "code", "message", "documentation"]) {
    if (typeof e[k] !== "string" || e[k] === "") throw new Error(`error.${k} missing: ${where}`);
  }
  if (!/^https?:\/\//.test(e.documentation)) throw new Error(`error.documentation is not a link: ${where}`);
  const m = res.body.meta;
  if (typeof m?.requestId !== "string" || !m.requestId.startsWith("req_")) throw new Error(`meta.requestId missing: ${where}`);
  if (typeof m.timestamp !== "string" || Number.isNaN(Date.parse(m.timestamp))) throw new Error(`meta.timestamp missing: ${where}`);
  return e as { type: string; code: string; message: string; documentation: string; field?: string; suggestion?: string };
}
