import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError({
  status: 413, type: "validation_error", code: "PAYLOAD_TOO_LARGE",
  message: `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`,
});

/** Reads at most MAX_BODY_BYTES + 1 bytes, so a huge or endless body costs no more than the limit. */
async function readLimited(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) { await reader.cancel().catch(() => {}); throw tooLarge(); }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

export interface JsonBody {
  raw: string;
  value: unknown;
}

/** An empty body reads as `{}` so that a missing field is reported by name; anything else must be JSON. */
export async function readJsonBody(req: Request): Promise<JsonBody> {
  const raw = await readLimited(req);
  if (raw.trim() === "") return { raw: "", value: {} };
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/.test(type)) {
    throw new ApiError({
      status: 400, type: "validation_error", code: "INVALID_JSON",
      message: "The request body must be JSON.", suggestion: "Send 'Content-Type: application/json' with a JSON object body.",
    });
  }
  try {
    return { raw, value: JSON.parse(raw) };
  } catch {
    throw new ApiError({ status: 400, type: "validation_error", code: "INVALID_JSON", message: "The request body is not valid JSON." });
  }
}
