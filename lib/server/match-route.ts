import { invalidParameter } from "@/lib/http/errors";
import type { AnyRoute, HttpMethod } from "@/lib/http/route";

// A tree of path segments built once from the route table: a literal segment beats a `{param}` one at the same
// depth (`/v1/invoices/upcoming` before `/v1/invoices/{id}`), as Next's file router did.

interface Node {
  literal: Map<string, Node>;
  param: { name: string; node: Node } | null;
  routes: Map<string, AnyRoute>;
  path: string | null;
}

const node = (): Node => ({ literal: new Map(), param: null, routes: new Map(), path: null });

export type RouteMatch =
  | { kind: "route"; route: AnyRoute; params: Record<string, string> }
  /** The path exists, the method does not: 405 with `Allow`. */
  | { kind: "method"; allow: string[]; path: string }
  | { kind: "none" };

export class RouteMatcher {
  private readonly root = node();

  constructor(routes: AnyRoute[]) {
    for (const route of routes) {
      let at = this.root;
      for (const segment of route.path.split("/").filter(Boolean)) {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (param) {
          at.param ??= { name: param[1], node: node() };
          if (at.param.name !== param[1])
            throw new Error(`${route.path}: parameter {${param[1]}} where another route has {${at.param.name}}`);
          at = at.param.node;
        } else {
          if (!at.literal.has(segment)) at.literal.set(segment, node());
          at = at.literal.get(segment)!;
        }
      }
      if (at.routes.has(route.method)) throw new Error(`two routes for ${route.method} ${route.path}`);
      at.routes.set(route.method, route);
      at.path = route.path;
    }
  }

  /**
   * Matches a raw (still percent-encoded) path. A segment that is not valid percent-encoding is a 400 naming the
   * path, never a 500. HEAD is answered as GET.
   */
  match(method: string, rawPath: string): RouteMatch {
    const segments = rawPath.split("/").filter(Boolean);
    const params: Record<string, string> = {};
    const found = this.walk(this.root, segments, 0, params);
    if (!found || found.routes.size === 0) return { kind: "none" };
    const route = found.routes.get(method === "HEAD" ? "GET" : method);
    if (route) return { kind: "route", route, params };
    return { kind: "method", allow: [...found.routes.keys()], path: found.path ?? rawPath };
  }

  private walk(at: Node, segments: string[], i: number, params: Record<string, string>): Node | null {
    if (i === segments.length) return at;
    const segment = decodeSegment(segments[i]);
    const literal = at.literal.get(segment);
    if (literal) {
      const found = this.walk(literal, segments, i + 1, params);
      if (found && found.routes.size > 0) return found;
    }
    if (at.param) {
      const found = this.walk(at.param.node, segments, i + 1, params);
      if (found && found.routes.size > 0) {
        params[at.param.name] = segment;
        return found;
      }
    }
    return null;
  }
}

export function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidParameter("path", `The path segment '${segment.slice(0, 100)}' is not valid percent-encoding.`);
  }
}

export type { HttpMethod };
