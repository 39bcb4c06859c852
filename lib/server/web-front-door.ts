import { publicBaseUrl } from "@/lib/http/public-base-url";
import { readRequestText } from "@/lib/http/read-body";
import { dispatchApi } from "./dispatch";

/**
 * The API behind Next's catch-all route (app/v1/[[...path]]/route.ts), for `next dev`; in production the data plane (data-plane.mjs)
 * answers /v1 on node:http and Next never sees it (node-front-door.ts). Same dispatcher, same pipeline.
 */
export async function serveWebRequest(req: Request): Promise<Response> {
  const answer = await dispatchApi({
    method: req.method,
    url: new URL(req.url),
    headers: req.headers,
    baseUrl: publicBaseUrl(req),
    readText: () => readRequestText(req),
  });
  const empty = req.method === "HEAD" || answer.status === 204;
  return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
}
