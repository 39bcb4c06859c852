import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { newId } from "@/lib/ids";
import { now } from "@/lib/clock";
import { ApiError, notFound } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { withEvents, emitEvent, type Tx } from "@/lib/events/emit-event";
import { recordAudit } from "@/lib/audit/record-audit";
import { currentSubscriptions, rateProductCall } from "@/lib/billing/rate-request";
import { holdSpend, paidByCredits, settleSpend } from "@/lib/billing/spend-guard";
import { draftCovering, rateLate } from "@/lib/billing/late-usage";
import type { MeterEventCreate } from "@/lib/schemas/product-calls";
import {
  METER_CALL,
  prepareMeterEvent,
  preparedView,
  serializeMeterEvent,
  settleMeterEvent,
  type PreparedMeterEvent,
  writeMeterEvent,
} from "./meter-events";

type UsageRow = Awaited<ReturnType<typeof db.usageEvent.findFirstOrThrow>>;

// Corrected usage, audited (issue 40; Orb's amendments are the model). A meter event of the open period can be
// amended to another quantity or voided (amended to 0): the original is kept and marked, and the correction is a
// new event of the difference that references it, rated like any event (a negative difference is a negative
// cost: on a prepaid plan the credits come back). Each correction is an audit entry for both businesses and a
// usage.amended event to both sides. Once the period is invoiced, a correction is a 409 naming the invoice: the
// provider credits the customer instead (POST /v1/customers/{id}/credits); a finalised invoice never changes.

const CURRENT = CURRENT_SUBSCRIPTION_STATUSES;

async function invoiceCovering(subscriptionId: string, at: Date) {
  return db.invoice.findFirst({ where: { subscriptionId, status: { not: "draft" }, periodStart: { lte: at }, periodEnd: { gt: at } } });
}

export async function amendMeterEvent(provider: AuthContext, id: string, input: { quantity: number; reason: string }, action = "amended") {
  const original = await db.usageEvent.findFirst({ where: { id, providerId: provider.businessId, method: "METER" } });
  if (!original || original.environment !== provider.environment) throw notFound("meter event", id);
  if (original.correctionOf)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "id",
      message: `This event is a correction of ${original.correctionOf}: amend that one instead.`,
    });
  const sub = original.subscriptionId ? await db.subscription.findUnique({ where: { id: original.subscriptionId } }) : null;
  const open = sub && CURRENT.includes(sub.status) && original.timestamp >= sub.currentPeriodStart;
  // A period in its grace (its invoice a draft) can still be corrected; the draft is rated again when finalised.
  const late = sub && !open ? await draftCovering(sub.id, original.timestamp) : null;
  if (!sub || (!open && !late)) {
    const invoice = sub ? await invoiceCovering(sub.id, original.timestamp) : null;
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "USAGE_INVOICED",
      field: "id",
      message: invoice
        ? `The event's period is on invoice ${invoice.id}, which is finalised: usage on it can no longer change.`
        : "The event's period is closed: usage on it can no longer change.",
      suggestion: "Credit the customer instead: POST /v1/customers/{id}/credits.",
      extra: { invoiceId: invoice?.id ?? null },
    });
  }
  const corrections = await db.usageEvent.aggregate({ where: { correctionOf: original.id }, _sum: { quantity: true } });
  const effective = original.quantity + (corrections._sum.quantity ?? 0);
  const delta = input.quantity - effective;
  if (delta === 0) return { ...serializeMeterEvent(original, null), quantity: effective, correctionOf: null, reason: null };

  // Rated and paid like any event of the period: a positive difference needs credits (402), a negative one refunds.
  const cached = await currentSubscriptions(sub.projectId, sub.environment);
  const entry = cached.byProduct.get(original.productId ?? "");
  const current = entry && entry.subscriptionId === sub.id && !late ? entry : null;
  const hold = current ? await holdSpend(current, delta) : null;
  const cost = late
    ? await rateLate(late, delta)
    : current
      ? await rateProductCall(current, { at: original.timestamp, statusCode: 200, bytes: 0, computeMs: 0, quantity: delta })
      : null;
  const t = now();
  const correctionId = newId("usage");
  const view = (row: UsageRow) => ({
    ...serializeMeterEvent(row, cost?.currency ?? null),
    correctionOf: original.id,
    reason: input.reason,
  });
  let correction;
  try {
    correction = await withEvents(
      async (tx) => {
        const row = await tx.usageEvent.create({
          data: {
            id: correctionId,
            timestamp: original.timestamp,
            businessId: original.businessId,
            projectId: original.projectId,
            environment: original.environment,
            apiKey: provider.principal.id,
            ...METER_CALL,
            endpoint: original.endpoint,
            path: original.path,
            cost: cost ? Number(cost.decimal) : null,
            billable: original.billable,
            productId: original.productId,
            subscriptionId: original.subscriptionId,
            providerId: original.providerId,
            quantity: delta,
            paidByCredits: paidByCredits(hold),
            correctionOf: original.id,
            correctionReason: input.reason,
          },
        });
        await tx.usageEvent.updateMany({ where: { id: original.id, timestamp: original.timestamp }, data: { correctedBy: row.id } });
        const data = {
          object: "usage_correction",
          action,
          original: original.id,
          correction: row.id,
          subscriptionId: original.subscriptionId,
          productId: original.productId,
          quantity: { from: effective, to: input.quantity, difference: delta },
          cost: cost ? { amount: cost.decimal, currency: cost.currency } : null,
          reason: input.reason,
          at: t.toISOString(),
        };
        const event = { businessId: original.businessId, environment: original.environment, type: "usage.amended", data };
        await emitEvent(event, tx as unknown as Tx);
        if (original.providerId && original.providerId !== original.businessId)
          await emitEvent({ ...event, businessId: original.providerId }, tx as unknown as Tx);
        return row;
      },
      { answer: view },
    );
    await settleSpend(hold, cost?.nanos ?? null);
  } catch (e) {
    await settleSpend(hold, null);
    throw e;
  }
  // Who, when, why: an audit entry in each business's log.
  for (const businessId of new Set([original.businessId, original.providerId ?? provider.businessId]))
    recordAudit({
      businessId,
      environment: original.environment,
      actorType: "api_key",
      actorId: provider.principal.id,
      action: `usage.${action}`,
      targetType: "usage_event",
      targetId: original.id,
      details: { correction: correction.id, from: effective, to: input.quantity, reason: input.reason, by: provider.businessId },
    });
  return view(correction);
}

export const voidMeterEvent = (provider: AuthContext, id: string, input: { reason: string }) =>
  amendMeterEvent(provider, id, { quantity: 0, reason: input.reason }, "voided");

type BackfillResult = {
  index: number;
  status: "created" | "duplicate" | "error";
  event: ReturnType<typeof serializeMeterEvent> | null;
  error: { code: string; message: string; field: string | null } | null;
};

/** Up to 1,000 events at once, each exactly as POST /v1/meter-events takes it (deduplicated by identifier, forever,
 * per product), each answered on its own: one refused event does not stop the others. The events taken are written
 * in one transaction that declares the answer, so a retry after a crash replays it whole. */
export async function backfillMeterEvents(
  provider: AuthContext,
  input: { events: MeterEventCreate[] },
  attempt = 1,
): Promise<{
  object: "list";
  created: number;
  duplicates: number;
  errors: number;
  data: BackfillResult[];
}> {
  const results: BackfillResult[] = [];
  const prepared: { index: number; event: PreparedMeterEvent }[] = [];
  // An identifier twice in one batch is one event: the later ones answer the first.
  const firstOf = new Map<string, number>();
  const duplicateOf = new Map<number, number>();
  for (const [index, e] of input.events.entries()) {
    let event: PreparedMeterEvent;
    try {
      event = await prepareMeterEvent(provider, e);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        await Promise.all(prepared.map((p) => settleMeterEvent(p.event, null)));
        throw err;
      }
      results.push({ index, status: "error", event: null, error: { code: err.code, message: err.message, field: err.field ?? null } });
      continue;
    }
    const row = event.kind === "new" ? event.data : event.row;
    const key = `${row.productId}\u0000${row.identifier}`;
    const first = firstOf.get(key);
    if (first !== undefined) {
      await settleMeterEvent(event, null);
      duplicateOf.set(index, first);
      continue;
    }
    firstOf.set(key, index);
    prepared.push({ index, event });
  }
  const answer = (rows: Map<number, UsageRow>) => {
    const all = [...results];
    for (const p of prepared)
      all.push({
        index: p.index,
        status: p.event.kind === "new" ? "created" : "duplicate",
        event: preparedView(p.event, rows.get(p.index)!),
        error: null,
      });
    for (const [index, first] of duplicateOf) {
      all.push({ index, status: "duplicate", event: serializeMeterEvent(rows.get(first)!, null), error: null });
    }
    all.sort((a, b) => a.index - b.index);
    const count = (status: BackfillResult["status"]) => all.filter((r) => r.status === status).length;
    return { object: "list" as const, created: count("created"), duplicates: count("duplicate"), errors: count("error"), data: all };
  };
  let rows: Map<number, UsageRow>;
  try {
    rows = await withEvents(
      async (tx) => {
        const written = new Map<number, UsageRow>();
        for (const p of prepared) written.set(p.index, p.event.kind === "new" ? await writeMeterEvent(tx, p.event.data) : p.event.row);
        return written;
      },
      { answer },
    );
  } catch (e) {
    await Promise.all(prepared.map((p) => settleMeterEvent(p.event, null)));
    // Another request wrote one of these identifiers meanwhile: once more, and that one answers as a duplicate.
    if ((e as { code?: string }).code === "P2002" && attempt === 1) return backfillMeterEvents(provider, input, 2);
    throw e;
  }
  await Promise.all(prepared.map((p) => settleMeterEvent(p.event, rows.get(p.index)!)));
  return answer(rows);
}
