// Shared helpers for the API integration tests: a tiny HTTP client for the server under test (BASE_URL)
// and seeding of a fresh business per test, so test files run in parallel without seeing each other.
import { bootstrapBusiness, type Plan } from "@/lib/businesses/bootstrap-business";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(method: string, path: string, opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; base?: string } = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) { body = JSON.stringify(opts.body); headers["content-type"] ??= "application/json"; }
  const res = await fetch(`${opts.base ?? BASE_URL}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A client bound to one key. */
export function client(key: string, base?: string) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>("GET", path, { key, headers, base }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>("POST", path, { key, body, headers, base }),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>("PATCH", path, { key, body, headers, base }),
    delete: <T = any>(path: string, headers?: Record<string, string>) => request<T>("DELETE", path, { key, headers, base }),
  };
}

let counter = 0;

/** A new business with its default project and two full-access keys, written straight to the test database. */
export async function seedBusiness(plan: Plan = "free") {
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
  return res.body.error as { type: string; code: string; message: string; field?: string; suggestion?: string; documentation?: string; [k: string]: unknown };
}
