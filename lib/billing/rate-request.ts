import { db } from "@/lib/db/client";
import { publish, subscribe } from "@/lib/redis/bus";
import { processSingleton } from "@/lib/process-state";
import type { AuthContext } from "@/lib/http/auth-context";
import { compilePrice, type PricePlan } from "./price-plan";
import { newRatingState, rateEvent, type RatingState } from "./rate-events";
import { addInterval } from "./periods";
import { periodQuantities } from "./period-usage";
import { nanosToDecimal } from "./money";

// The cost of one request, on the request's path without a database query: each process keeps the project's
// current subscription, its compiled price and the period's running totals in memory. A subscription write
// invalidates its entry at once in this process and, through Redis pub/sub when REDIS_URL is set, in the others;
// without Redis they notice within BILLING_CACHE_TTL_MS (default 30 s), refreshing in the background while they
// go on rating with what they have.
//
// The running totals start from the period's usage events when a process first meets the subscription and then
// count this process's requests. With several processes each counts its own, so the cost a response shows can
// differ from the invoice around an allowance or tier boundary; the invoice rates the period's events in
// (timestamp, id) order, which is what its CSV shows, and with one process the two agree.

const TTL_MS = Number(process.env.BILLING_CACHE_TTL_MS ?? 30_000);

interface Entry {
  loadedAt: number;
  invalid: boolean;
  subscriptionId: string | null;
  priceId: string | null;
  cancelAtPeriodEnd: boolean;
  plan: PricePlan | null;
  periodStart: number;
  periodEnd: number;
  state: RatingState | null;
}

const S = processSingleton("billing-rate-cache", () => new Map<string, Entry>());

const TOPIC = "billing-changed";
const listener = processSingleton("billing-invalidation", () => ({ listening: false }));

function invalidateLocally(key: string): void {
  const e = S.get(key);
  if (e) e.invalid = true;
}

export function invalidateBillingCache(projectId: string, environment: string): void {
  const key = `${projectId}|${environment}`;
  invalidateLocally(key);
  publish(TOPIC, key);
}

function listenForBillingChanges(): void {
  if (listener.listening) return;
  listener.listening = true;
  subscribe(TOPIC, invalidateLocally);
}

async function load(key: string, projectId: string, environment: string, previous: Entry | undefined): Promise<Entry> {
  const sub = await db.subscription.findFirst({
    where: { projectId, environment, status: { in: ["active", "past_due"] } },
    orderBy: { createdAt: "desc" },
  });
  const price = sub ? await db.price.findUnique({ where: { id: sub.priceId } }) : null;
  const entry: Entry = {
    loadedAt: Date.now(),
    invalid: false,
    subscriptionId: sub?.id ?? null,
    priceId: price?.id ?? null,
    cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
    plan: price ? compilePrice(price) : null,
    periodStart: sub?.currentPeriodStart.getTime() ?? 0,
    periodEnd: sub?.currentPeriodEnd.getTime() ?? 0,
    state: null,
  };
  if (sub && entry.plan) {
    const same =
      previous &&
      previous.subscriptionId === sub.id &&
      previous.priceId === entry.priceId &&
      previous.periodStart === entry.periodStart &&
      previous.state;
    entry.state = same
      ? previous.state
      : newRatingState(
          entry.plan,
          await periodQuantities({ projectId, environment, start: sub.currentPeriodStart, end: sub.currentPeriodEnd }),
        );
  }
  S.set(key, entry);
  return entry;
}

const pending = processSingleton("billing-rate-loading", () => new Map<string, Promise<Entry>>());

function entryFor(auth: AuthContext): Entry | Promise<Entry> {
  const key = `${auth.projectId}|${auth.environment}`;
  const e = S.get(key);
  const refresh = () => {
    let p = pending.get(key);
    if (!p) {
      p = load(key, auth.projectId, auth.environment, e).finally(() => pending.delete(key));
      pending.set(key, p);
    }
    return p;
  };
  if (!e || e.invalid) return refresh();
  if (Date.now() - e.loadedAt > TTL_MS) void refresh().catch((err) => console.error("[billing] refreshing the rating cache failed", err));
  return e;
}

export interface RequestCost {
  nanos: bigint;
  currency: string;
  decimal: string;
}

/**
 * Rates a finished request: null when it is not rated (an error, or no current subscription). `at` decides the
 * period; a request after the period's end starts the next period's totals before the job has renewed it.
 */
export async function rateRequest(
  auth: AuthContext,
  r: { at: Date; statusCode: number; bytes: number; computeMs: number },
): Promise<RequestCost | null> {
  if (r.statusCode >= 400) return null;
  listenForBillingChanges();
  const found = entryFor(auth);
  const e = found instanceof Promise ? await found : found;
  if (!e.plan || !e.state) return null;
  const t = r.at.getTime();
  // Before the subscription began (the request that created it, say): in no period of it, like its invoice.
  if (t < e.periodStart) return null;
  if (t >= e.periodEnd) {
    if (e.cancelAtPeriodEnd) return null;
    while (t >= e.periodEnd) {
      e.periodStart = e.periodEnd;
      e.periodEnd = addInterval(new Date(e.periodEnd), e.plan.interval, 1).getTime();
    }
    e.state = newRatingState(e.plan);
  }
  const nanos = rateEvent(e.state, { bytes: r.bytes, computeMs: Math.round(r.computeMs * 100) / 100 });
  return { nanos, currency: e.plan.currency, decimal: nanosToDecimal(nanos) };
}
