// Which credits a spend used: each purchase or grant is a lot, and every debit (a burn, credits applied to an
// invoice, a negative adjustment) takes from the lots alive at its time, the one expiring first first (lots that
// never expire last, older before newer), as Stripe's credit grants and Orb's do. A lot that expires loses what is
// left of it then. A pure function of the ledger's timeline, so the balance per lot and each expiry are exact.

export interface Lot {
  id: string;
  amount: bigint;
  createdAt: number;
  expiresAt: number | null;
}

export interface Debit {
  at: number;
  amount: bigint;
}

export interface LotState {
  id: string;
  /** What is left (0 once expired or spent). */
  remaining: bigint;
  /** What the lot lost to its expiry (null while it has not expired at `until`). */
  expired: bigint | null;
}

const spendOrder = (a: Lot, b: Lot) =>
  (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

/** The lots' state at `until` (ms), given every debit up to it. */
export function allocateLots(lots: Lot[], debits: Debit[], until: number): LotState[] {
  const left = new Map(lots.map((l) => [l.id, l.amount]));
  const expired = new Map<string, bigint>();
  type Moment = { at: number; order: number; apply: () => void };
  const moments: Moment[] = [];
  // At one instant, lots expiring then expire first (a lot is spendable until, not at, its expiresAt); then debits.
  for (const d of debits) if (d.at <= until) moments.push({ at: d.at, order: 1, apply: () => take(d.at, d.amount) });
  for (const l of lots)
    if (l.expiresAt !== null && l.expiresAt <= until)
      moments.push({
        at: l.expiresAt,
        order: 0,
        apply: () => {
          expired.set(l.id, left.get(l.id)!);
          left.set(l.id, 0n);
        },
      });
  moments.sort((a, b) => a.at - b.at || a.order - b.order);
  const ordered = [...lots].sort(spendOrder);

  function take(at: number, amount: bigint) {
    let due = amount;
    for (const l of ordered) {
      if (due <= 0n) break;
      if (l.createdAt > at || expired.has(l.id)) continue;
      const has = left.get(l.id)!;
      if (has <= 0n) continue;
      const used = has < due ? has : due;
      left.set(l.id, has - used);
      due -= used;
    }
  }

  for (const m of moments) m.apply();
  return lots.map((l) => ({ id: l.id, remaining: left.get(l.id)!, expired: expired.get(l.id) ?? null }));
}

/** The instants at which the set of lots alive changes: burns between two of them can be summed as one debit. */
export function lotBoundaries(lots: Lot[], until: number): number[] {
  const set = new Set<number>();
  for (const l of lots) {
    if (l.createdAt <= until) set.add(l.createdAt);
    if (l.expiresAt !== null && l.expiresAt <= until) set.add(l.expiresAt);
  }
  return [...set].sort((a, b) => a - b);
}
