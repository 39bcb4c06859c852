// Start a second server with its own environment (for configuration such as API_VERSIONS), on the same
// database as the suite's server.
import type { ChildProcess } from "node:child_process";
// @ts-expect-error: plain ESM script without types
import { startServer as start } from "../../scripts/lib/server.mjs";

export interface TestServer {
  url: string;
  /** The server's process (a crash test kills it with SIGKILL). */
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startServer(env: Record<string, string>): Promise<TestServer> {
  return start({ env });
}
