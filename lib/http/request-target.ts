// A request target's path and query as the WHATWG URL parser resolves them: dot segments ("..", "%2e%2e")
// resolved, "\" read as "/", characters outside the path's and the query's sets percent-encoded, the fragment
// dropped. The text is always read as a path: "//host/x" stays the path "//host/x", where `new URL(text, base)`
// would take "host" for an authority (which, for an upstream's address, is another host).

// Text the parser gives back unchanged: "/"-separated segments of unreserved and sub-delimiter characters, none
// empty or starting with "." (no "//", ".", ".." or ".hidden" needing a look) and no "%" in the path (no "%2e"),
// then at most a query (not an empty one: the parser drops a bare "?") of the same characters, "/", "?" and "%".
// Most requests are written so.
const CANONICAL = /^(?:\/[A-Za-z0-9\-_~!$&()*+,;=:@][A-Za-z0-9\-._~!$&()*+,;=:@]*)*\/?(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;

/** `target` (starting with "/") as path and query, resolved; canonical text comes back as it is, unparsed. */
export function resolvePathAndQuery(target: string): string {
  if (CANONICAL.test(target)) return target;
  const url = new URL(`http://path.invalid${target.startsWith("/") ? "" : "/"}${target}`);
  return url.pathname + url.search;
}
