"use client";
import { useState } from "react";
import type { PortalMcpTool } from "@/lib/apps/portal-mcp";
import { mcpRequestHeaders, toolCallBody } from "@/lib/mcp/client-snippets";
import { Badge, Button } from "@/components/ui/primitives";
import { useTryItKey } from "./try-it-key";

// Try a tool from the AI agents page: the arguments as JSON (prefilled from the tool's inputSchema), sent as a
// JSON-RPC tools/call to the product's MCP server with the portal's one-hour TEST try-it key, exactly as an agent
// would send it. The result is shown as the server answered it: structured content or text, isError, and the cost.

interface CallOutcome {
  isError: boolean;
  text: string;
  structured: unknown;
  cost: string | null;
  requestId: string | null;
}

type ContentPart = { type: string; text?: string };

function outcomeOf(answer: unknown): CallOutcome {
  const a = answer as { result?: Record<string, unknown>; error?: { message?: string } } | null;
  if (!a?.result)
    return { isError: true, text: a?.error?.message ?? "The server gave no result.", structured: null, cost: null, requestId: null };
  const r = a.result;
  const meta = (r._meta ?? {}) as { cost?: unknown; requestId?: unknown };
  const text = Array.isArray(r.content)
    ? (r.content as ContentPart[])
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("\n")
    : "";
  return {
    isError: r.isError === true,
    text,
    structured: r.structuredContent ?? null,
    cost: typeof meta.cost === "string" ? meta.cost : null,
    requestId: typeof meta.requestId === "string" ? meta.requestId : null,
  };
}

/** A Streamable HTTP answer is JSON here (the server answers without streams), or one SSE `data:` line. */
async function readAnswer(res: Response): Promise<unknown> {
  const body = await res.text();
  if (res.headers.get("content-type")?.includes("text/event-stream")) {
    const data = body.split("\n").find((l) => l.startsWith("data:"));
    return data ? JSON.parse(data.slice(5)) : null;
  }
  return body ? JSON.parse(body) : null;
}

export function McpTryTool({ productId, endpoint, tools }: { productId: string; endpoint: string; tools: PortalMcpTool[] }) {
  const { token, error: keyError } = useTryItKey({ state: "ready", productId }, true);
  const [toolName, setToolName] = useState(tools[0]?.name ?? "");
  const [args, setArgs] = useState(JSON.stringify(tools[0]?.example ?? {}, null, 2));
  const [argsError, setArgsError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);

  function choose(name: string) {
    setToolName(name);
    setArgs(JSON.stringify(tools.find((t) => t.name === name)?.example ?? {}, null, 2));
    setArgsError(null);
    setOutcome(null);
  }

  async function run() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || "{}");
    } catch (e) {
      return setArgsError(`The arguments are not JSON: ${(e as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return setArgsError("The arguments must be a JSON object.");
    if (!token) return;
    setArgsError(null);
    setPending(true);
    try {
      const res = await fetch(endpoint, {
        method: "POST",
        headers: mcpRequestHeaders(token),
        body: JSON.stringify(toolCallBody(Date.now(), toolName, parsed as Record<string, unknown>)),
      });
      setOutcome(res.ok ? outcomeOf(await readAnswer(res)) : { ...outcomeOf(await readAnswer(res).catch(() => null)), isError: true });
    } catch (e) {
      setOutcome({
        isError: true,
        text: `The call did not complete: ${(e as Error).message}`,
        structured: null,
        cost: null,
        requestId: null,
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      className="space-y-3"
      data-testid="mcp-try-form"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <label className="block text-sm font-medium" htmlFor="mcp-try-tool">
        Tool
      </label>
      <select
        id="mcp-try-tool"
        value={toolName}
        onChange={(e) => choose(e.target.value)}
        className="block w-full max-w-full rounded-md border border-(--app-border) bg-(--app-card) px-3 py-2 text-sm sm:w-auto"
      >
        {tools.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}
          </option>
        ))}
      </select>
      <label className="block text-sm font-medium" htmlFor="mcp-try-arguments">
        Arguments (JSON)
      </label>
      <textarea
        id="mcp-try-arguments"
        value={args}
        onChange={(e) => setArgs(e.target.value)}
        rows={6}
        spellCheck={false}
        aria-invalid={argsError ? true : undefined}
        aria-describedby={argsError ? "mcp-try-arguments-error" : undefined}
        className="block w-full rounded-md border border-(--app-border) bg-(--app-card) px-3 py-2 font-mono text-xs"
      />
      {argsError ? (
        <p id="mcp-try-arguments-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
          {argsError}
        </p>
      ) : null}
      {keyError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {keyError}
        </p>
      ) : token ? (
        <p className="text-xs text-(--app-muted)" data-testid="mcp-try-key">
          Calls use a test key limited to this API, valid for one hour: <code>{token.slice(0, 12)}…</code>
        </p>
      ) : null}
      <Button type="submit" disabled={pending || !token || !toolName}>
        {pending ? "Calling…" : "Call tool"}
      </Button>
      {outcome ? (
        <div className="space-y-2 rounded-md border border-(--app-border) p-3" data-testid="mcp-try-result" aria-live="polite">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone={outcome.isError ? "danger" : "success"}>{outcome.isError ? "isError" : "ok"}</Badge>
            {outcome.cost ? <span data-testid="mcp-try-cost">cost {outcome.cost}</span> : null}
            {outcome.requestId ? <code className="text-xs break-all">{outcome.requestId}</code> : null}
          </p>
          <pre className="max-h-96 overflow-auto rounded bg-(--app-accent-soft) p-3 text-xs whitespace-pre" data-testid="mcp-try-output">
            {outcome.structured !== null ? JSON.stringify(outcome.structured, null, 2) : outcome.text}
          </pre>
        </div>
      ) : null}
    </form>
  );
}
