// Portal sessions for API tests: raw HTTP requests (any Host header, cookies by hand) and a password sign-in through
// next-auth's own endpoints, as a browser's sign-in form does it.
import assert from "node:assert/strict";
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with any Host header (fetch does not let a caller set one); redirects are not followed. */
export function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** name=value pairs of Set-Cookie headers, for the next request's Cookie header. */
export const cookiePairs = (res: RawResponse) => (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);

/**
 * Signs in with e-mail and password at `baseUrl`, sending `host` as the Host header (the base URL's own host unless
 * told). Returns the URL next-auth sends the browser to, every Set-Cookie line of the exchange and the cookies to
 * send from then on.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  opts: { host?: string; headers?: Record<string, string> } = {},
) {
  const host = opts.host ?? new URL(baseUrl).host;
  const extra = opts.headers ?? {};
  const csrf = await raw(`${baseUrl}/api/auth/csrf`, { headers: { host, ...extra } });
  assert.equal(csrf.status, 200, csrf.body);
  const csrfToken = JSON.parse(csrf.body).csrfToken as string;
  const form = new URLSearchParams({ csrfToken, email, password, callbackUrl: "/portal", json: "true" }).toString();
  const res = await raw(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { host, ...extra, "content-type": "application/x-www-form-urlencoded", cookie: cookiePairs(csrf).join("; ") },
    body: form,
  });
  assert.equal(res.status, 200, res.body);
  const setCookies = [...(csrf.headers["set-cookie"] ?? []), ...(res.headers["set-cookie"] ?? [])];
  return { url: JSON.parse(res.body).url as string, setCookies, cookies: [...cookiePairs(csrf), ...cookiePairs(res)] };
}
