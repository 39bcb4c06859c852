// The README's and docs' runnable shell blocks (issue 59): each ```sh block right after a marker line
// `<!-- run: SECTION -->` is run as written, in order, by bash against a running server, so a README edit that breaks
// a call breaks CI (scripts/readme-run.mjs, tests/api/readme.test.ts, .ci/start-check).
//
// "As written", but for what only a reader can fill in:
// - a placeholder such as `proj_…`, `sk_test_…` or `price_…` (a prefix and an ellipsis) becomes the last id or key
//   with that prefix that an earlier block printed, as a reader copies it from the output above;
// - `localhost:3000` becomes the server under test, and `127.0.0.1:4010` (the example upstream) a free port;
// - `export`ed variables carry over from one block to the next, as in one terminal.
// Every curl is checked: a status below 400 (or one the marker allows: `<!-- run: walk-through allow=402 -->`), and
// a JSON body that is no error envelope, with `data` when it is the API's. Other output lines that are JSON must
// parse and carry no `error`. A block fails on the first command that exits non-zero (bash -e -o pipefail).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const MARKER = /^<!--\s*run:\s*([a-z0-9-]+)((?:\s+[a-z]+=[^\s>]+)*)\s*-->\s*$/;
const FENCE_OPEN = /^```(sh|bash|shell)\s*$/;
/** A reader's placeholder: an id prefix (`proj_`, `sk_test_`) followed by an ellipsis. */
const PLACEHOLDER = /\b((?:sk|pk|rk)_(?:test|live)_|[a-z]{2,8}_)…/g;
/** What an id or key looks like where a block printed one. */
const PRINTED_ID = /(?<![A-Za-z0-9_-])((?:sk|pk|rk)_(?:test|live)_|[a-z]{2,8}_)([A-Za-z0-9_-]{16,})/g;

export const README_HOST = "localhost:3000";
export const README_UPSTREAM = "127.0.0.1:4010";

/**
 * The runnable blocks of one Markdown text, in order: `{ file, line, section, allow, code }` (line: the fence's,
 * 1-based). A marker not followed by a shell fence is an error, so a marker cannot silently stop running anything.
 */
export function extractBlocks(markdown, file) {
  const lines = markdown.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i].trim());
    if (!m) continue;
    const fence = i + 1;
    if (!FENCE_OPEN.test(lines[fence]?.trim() ?? "")) {
      throw new Error(`${file}:${i + 1}: a run marker must be followed at once by a \`\`\`sh block`);
    }
    const end = lines.findIndex((l, j) => j > fence && l.trim() === "```");
    if (end < 0) throw new Error(`${file}:${fence + 1}: the block is never closed`);
    const options = Object.fromEntries(
      (m[2] ?? "")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((kv) => kv.split("=")),
    );
    blocks.push({
      file,
      line: fence + 1,
      section: m[1],
      allow: (options.allow ?? "").split(",").filter(Boolean).map(Number),
      code: lines.slice(fence + 1, end).join("\n"),
    });
    i = end;
  }
  return blocks;
}

/** Ids and keys in a block's output, by prefix: the last of each wins (a reader copies the newest). */
export function learnIds(output, learned = new Map()) {
  for (const m of output.matchAll(PRINTED_ID)) learned.set(m[1], m[1] + m[2]);
  return learned;
}

/** The block as it is run: placeholders filled from what earlier blocks printed, hosts pointed at the test's. */
export function substitute(code, learned, hosts = {}) {
  const missing = new Set();
  const fill = (text) =>
    text.replace(PLACEHOLDER, (whole, prefix) => {
      const value = learned.get(prefix);
      if (!value) missing.add(whole);
      return value ?? whole;
    });
  // A comment (`# …` at a line's start or after a space) shows what a command prints: it is left as it is.
  let out = code
    .split("\n")
    .map((line) => {
      const comment = line.search(/(^|\s)#(\s|$)/);
      return comment < 0 ? fill(line) : fill(line.slice(0, comment)) + line.slice(comment);
    })
    .join("\n");
  for (const [from, to] of Object.entries(hosts)) if (to) out = out.split(from).join(to);
  return { code: out, missing: [...missing] };
}

const CURL_START = "<<doc-block-curl-start>>";
const CURL_END = /<<doc-block-curl-end (\d{3}) (\S*)>>/;

// bash's preamble: curl says where each of its answers starts and ends, with its status and URL.
const PREAMBLE = `set -e -o pipefail
curl() { printf '\\n${CURL_START}\\n'; command curl -w '\\n<<doc-block-curl-end %{http_code} %{url_effective}>>\\n' "$@"; }
`;

const isJsonText = (t) => /^[[{]/.test(t.trim());

/** A curl answer's body: after its headers when it was asked for them (-i). */
function bodyOf(text) {
  const t = text.replace(/^\n/, "");
  if (!/^HTTP\/[\d.]+ \d{3}/.test(t)) return t;
  const split = t.search(/\r?\n\r?\n/);
  return split < 0 ? "" : t.slice(split).trim();
}

/** What is wrong with a block's output, or [] when nothing is. */
export function checkOutput(output, allow = []) {
  const problems = [];
  const outside = [];
  let rest = output;
  for (;;) {
    const start = rest.indexOf(CURL_START);
    if (start < 0) break;
    outside.push(rest.slice(0, start));
    const after = rest.slice(start + CURL_START.length);
    const end = CURL_END.exec(after);
    if (!end) {
      problems.push("a curl printed no status (it did not finish)");
      rest = "";
      break;
    }
    const status = Number(end[1]);
    const url = end[2];
    const body = bodyOf(after.slice(0, end.index));
    rest = after.slice(end.index + end[0].length);
    const where = `${status} from ${url.replace(/^https?:\/\/[^/]+/, "")}`;
    if (status === 0) problems.push(`curl could not connect to ${url}`);
    else if (status >= 400 && !allow.includes(status)) problems.push(`${where}: ${body.slice(0, 300)}`);
    if (status === 0 || (status >= 400 && !allow.includes(status)) || status === 204 || !isJsonText(body)) continue;
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      problems.push(`${where}: the body is not valid JSON: ${body.slice(0, 200)}`);
      continue;
    }
    if (parsed && typeof parsed === "object" && "error" in parsed) {
      // An error the marker allows (a 402 the walk-through shows) is what the reader is meant to see.
      if (!allow.includes(status)) problems.push(`${where}: an error envelope: ${JSON.stringify(parsed.error).slice(0, 300)}`);
    } else if (new URL(url, "http://x").pathname.startsWith("/v1/") && !url.includes(".json") && !("data" in (parsed ?? {}))) {
      problems.push(`${where}: not the API's envelope (no "data"): ${body.slice(0, 200)}`);
    }
  }
  outside.push(rest);
  for (const line of outside.join("\n").split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      const parsed = JSON.parse(t);
      if (parsed && typeof parsed === "object" && "error" in parsed) problems.push(`printed an error: ${t.slice(0, 300)}`);
    } catch {
      problems.push(`printed a line that is not valid JSON: ${t.slice(0, 200)}`);
    }
  }
  return problems;
}

function runBash(script, { env, cwd, timeoutMs }) {
  return new Promise((resolve) => {
    // A group of its own: what a block leaves running (the example upstream) is stopped with the group at the end.
    const child = spawn("bash", ["-c", script], { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(timed out after ${timeoutMs} ms)`;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
    // 'exit', not 'close': a background process of the block keeps the pipes open.
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      setTimeout(() => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, pid: child.pid }), 50);
    });
  });
}

/**
 * Runs the blocks in order in one "terminal": exports carry over, ids are learned from each block's output.
 * `base`: the server's origin (default: the README's own localhost:3000). Returns one result a block:
 * `{ block, ok, problems, stdout, stderr }`. Processes a block left running are stopped before it returns.
 */
export async function runBlocks(blocks, { base, upstreamPort, env = process.env, cwd = process.cwd(), timeoutMs = 120_000 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "doc-blocks-"));
  const state = path.join(dir, "exports.sh");
  const learned = new Map();
  const groups = [];
  const results = [];
  const hosts = {
    [README_HOST]: base ? new URL(base).host : null,
    [README_UPSTREAM]: upstreamPort ? `127.0.0.1:${upstreamPort}` : null,
  };
  try {
    for (const block of blocks) {
      const { code, missing } = substitute(block.code, learned, hosts);
      if (missing.length) {
        results.push({
          block,
          ok: false,
          problems: [`nothing printed before this block gives ${missing.join(", ")}`],
          stdout: "",
          stderr: "",
        });
        continue;
      }
      const script = `${PREAMBLE}[ -f '${state}' ] && . '${state}'\n${code}\nexport -p > '${state}'\n`;
      const r = await runBash(script, {
        env: { ...env, ...(upstreamPort ? { EXAMPLE_UPSTREAM_PORT: String(upstreamPort) } : {}) },
        cwd,
        timeoutMs,
      });
      groups.push(r.pid);
      learnIds(r.stdout, learned);
      const problems = checkOutput(r.stdout, block.allow);
      if (r.code !== 0) problems.unshift(`exited with ${r.code}: ${r.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 500)}`);
      results.push({ block, ok: problems.length === 0, problems, stdout: r.stdout, stderr: r.stderr });
    }
  } finally {
    for (const pid of groups) {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/** The marked blocks of README.md, then of docs/*.md in name order; `sections` keeps only those. */
export function docBlocks({ root = process.cwd(), files, sections } = {}) {
  const list = files ?? [
    "README.md",
    ...(existsSync(path.join(root, "docs")) ? readdirSync(path.join(root, "docs")) : [])
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const blocks = list.flatMap((f) => extractBlocks(readFileSync(path.join(root, f), "utf8"), f));
  return sections?.length ? blocks.filter((b) => sections.includes(b.section)) : blocks;
}
