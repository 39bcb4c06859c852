import type { IncomingHttpHeaders } from "node:http";

/**
 * Read-only request headers. A Web `Headers` is one already; `NodeHeaders` wraps node:http's header object so
 * that the pipeline reads both the same way without copying them into a `Headers` on every request.
 */
export interface HeaderReader extends Iterable<[string, string]> {
  get(name: string): string | null;
}

export class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(name.toLowerCase() === "set-cookie" ? "; " : ", ") : v;
  }

  *[Symbol.iterator](): Iterator<[string, string]> {
    for (const [name, v] of Object.entries(this.raw)) {
      if (v !== undefined) yield [name, Array.isArray(v) ? v.join(", ") : v];
    }
  }

  /** Each header as the iterator gives it, without a tuple per header (the request log reads every request's). */
  forEachHeader(visit: (name: string, value: string) => boolean | void): void {
    for (const name in this.raw) {
      const v = this.raw[name];
      if (v !== undefined && visit(name, Array.isArray(v) ? v.join(", ") : v) === false) return;
    }
  }
}
