import type { IncomingMessage } from "node:http";
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

// The body is not read to its end, so the connection cannot carry another request: `Connection: close` tells the
// client, and the server closes it once the answer is sent (else a chunked upload keeps the socket hanging).
const tooLarge = () =>
  new ApiError({
    status: 413,
    type: "validation_error",
    code: "PAYLOAD_TOO_LARGE",
    message: `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`,
    headers: { Connection: "close" },
  });

const decode = (chunks: Uint8Array[]) => new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));

/** Reads at most MAX_BODY_BYTES + 1 bytes of a Web request, so a huge or endless body costs no more than the limit. */
export async function readRequestText(req: Request): Promise<string> {
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
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return decode(chunks);
}

// A client that is still sending when the server answers and closes gets a reset instead of the answer. So past
// the limit the rest is read and thrown away, until the body ends, DRAIN_LIMIT bytes were read or DRAIN_MS passed
// (a client that stalls mid-body); then the 413 goes out with `Connection: close` and the connection is closed.
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;
const DRAIN_MS = 2_000;

/** The same for a node:http request: keeps at most MAX_BODY_BYTES. */
export function readNodeText(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > DRAIN_LIMIT) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let draining: NodeJS.Timeout | null = null;
    const refuse = () => {
      if (draining) clearTimeout(draining);
      req.off("data", onData);
      req.pause();
      reject(tooLarge());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) refuse();
      else draining ??= setTimeout(refuse, DRAIN_MS);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (draining) clearTimeout(draining);
      if (size > MAX_BODY_BYTES) reject(tooLarge());
      else resolve(decode(chunks));
    });
    req.once("error", reject);
  });
}

// NUL cannot be stored in PostgreSQL text or JSON, and a lone UTF-16 surrogate ("\ud800", legal in JSON's grammar)
// is no text at all: SQLite's driver refuses it. Either would fail at the database as a 500, so it is refused here.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path (`a.b[2]`) of the first string or key in `value` that cannot be stored, or null. Iterative: any depth. */
function unstorableAt(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (UNSTORABLE.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (UNSTORABLE.test(k)) return at;
        stack.push({ v: child, path: at });
      }
    }
  }
  return null;
}

export interface JsonBody {
  raw: string;
  value: unknown;
}

/** An empty body reads as `{}` so that a missing field is reported by name; anything else must be JSON. */
export function parseJsonBody(raw: string, contentType: string | null): JsonBody {
  if (raw.trim() === "") return { raw: "", value: {} };
  const type = (contentType ?? "").toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/.test(type)) {
    throw new ApiError({
      status: 400,
      type: "validation_error",
      code: "INVALID_JSON",
      message: "The request body must be JSON.",
      suggestion: "Send 'Content-Type: application/json' with a JSON object body.",
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError({ status: 400, type: "validation_error", code: "INVALID_JSON", message: "The request body is not valid JSON." });
  }
  const bad = unstorableAt(value);
  if (bad !== null) {
    const field = bad.replace(new RegExp(UNSTORABLE.source, "g"), "").slice(0, 200) || undefined;
    throw new ApiError({
      status: 400,
      type: "validation_error",
      code: "INVALID_FIELD",
      field,
      message: "Text must not contain NUL characters or unpaired UTF-16 surrogates.",
    });
  }
  return { raw, value };
}

/** Reads and parses a Web request's JSON body. */
export async function readJsonBody(req: Request): Promise<JsonBody> {
  return parseJsonBody(await readRequestText(req), req.headers.get("content-type"));
}
