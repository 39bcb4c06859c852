import type { ServerResponse } from "node:http";
import type { ApiResponse } from "./request-context";

/**
 * Writes a pipeline's answer on node:http (Content-Length set, no body for HEAD and 204). The body goes as the
 * string it is: node:http then sends head and body in one write, without copying the body into a Buffer first.
 */
export function writeAnswer(res: ServerResponse, method: string | undefined, answer: ApiResponse): void {
  const body = answer.body === null || method === "HEAD" || answer.status === 204 ? null : answer.body;
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.status !== 204)
    headers["Content-Length"] =
      body !== null ? Buffer.byteLength(body) : method === "HEAD" && answer.body ? Buffer.byteLength(answer.body) : 0;
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
}
