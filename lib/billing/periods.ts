// Billing periods: anchored at the subscription's start, a calendar month (or year) long. A period starting on
// the 31st ends on the last day of a shorter month and the next one goes back to the 31st (Stripe's anchor rule).

export function addInterval(anchor: Date, interval: "month" | "year", count: number): Date {
  const months = interval === "year" ? 12 * count : count;
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const targetYear = y + Math.floor(m / 12);
  const targetMonth = ((m % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The period [start, end) of `anchor`'s schedule that contains `at`. */
export function periodContaining(anchor: Date, interval: "month" | "year", at: Date): { start: Date; end: Date; index: number } {
  let index = 0;
  // Jump close first (months since the anchor), then step: a long-idle subscription costs a few iterations.
  const approx = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + at.getUTCMonth() - anchor.getUTCMonth();
  index = Math.max(0, Math.floor(interval === "year" ? approx / 12 : approx) - 1);
  while (addInterval(anchor, interval, index + 1) <= at) index++;
  return { start: addInterval(anchor, interval, index), end: addInterval(anchor, interval, index + 1), index };
}
