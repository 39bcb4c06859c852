import { randomBytes } from "node:crypto";
import { listenToLocalBus, pollLocalBus, writeLocalBus } from "@/lib/bus/local-bus";
import { processSingleton } from "@/lib/process-state";
import { flushUsage } from "./recorder";

// Usage events are queued in the process that answered the call and written in batches. Work that counts a
// period's usage (a final invoice when a subscription is cancelled, the period-closing job) must see the calls
// every process has answered so far, not only its own: it asks every data-plane worker of this machine, over the
// local bus, to write what it holds, and waits for each to say it has (DATA_PLANE_WORKER_COUNT, set by the
// supervisor, says how many answer). A worker that does not answer within the timeout (restarting, say) is
// waited for no longer: its events are in its journal and reach the database when it is back.

const REQUEST = "usage-flush";
const DONE = "usage-flushed";

// Other deployments may share the database file, and with it the bus (two `npm start`s, a test's second server):
// only this supervisor's workers answer, and only theirs are counted.
const deployment = () => process.env.PLATFORM_DEPLOYMENT_ID ?? "";

const state = processSingleton("usage-flush-everywhere", () => ({
  listening: false,
  answering: false,
  acks: new Map<string, Set<string>>(),
}));

function listen(): void {
  if (state.listening) return;
  state.listening = true;
  listenToLocalBus((topic, message) => {
    if (topic === REQUEST && state.answering && message.endsWith(`|${deployment()}`)) {
      flushUsage()
        .then(() => writeLocalBus(DONE, `${message}|${process.pid}`))
        .catch((e) => console.warn(`[usage] flush asked by another process failed: ${(e as Error).message}`));
    } else if (topic === DONE) {
      const [nonce, , who] = message.split("|");
      state.acks.get(nonce)?.add(who);
    }
  });
}

/** A data-plane worker: writes its queued usage when another process asks (flushUsageEverywhere). */
export function answerUsageFlushRequests(): void {
  state.answering = true;
  listen();
}

/** This process's queued usage written, and every other data-plane worker's of this machine too. */
export async function flushUsageEverywhere(timeoutMs = 5000): Promise<void> {
  await flushUsage();
  const peers = Number(process.env.DATA_PLANE_WORKER_COUNT ?? 0) - (state.answering ? 1 : 0);
  if (!(peers > 0)) return;
  listen();
  const nonce = randomBytes(8).toString("hex");
  const acks = new Set<string>();
  state.acks.set(nonce, acks);
  writeLocalBus(REQUEST, `${nonce}|${deployment()}`);
  const deadline = Date.now() + timeoutMs;
  try {
    while (acks.size < peers && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
      pollLocalBus();
    }
  } finally {
    state.acks.delete(nonce);
  }
  if (acks.size < peers) console.warn(`[usage] ${peers - acks.size} of ${peers} data-plane workers did not flush within ${timeoutMs} ms`);
}
