// Calendar periods in UTC: quotas reset at the start of each month.

export interface MonthPeriod {
  key: string;
  start: Date;
  end: Date;
}

// Every metered request asks for its month; the answer changes twelve times a year, so the last one is kept.
let last: { month: number; period: MonthPeriod } | null = null;

export function monthPeriod(at: Date): MonthPeriod {
  const month = at.getUTCFullYear() * 12 + at.getUTCMonth();
  // Shared between callers: none of them changes a period's dates.
  if (last?.month === month) return last.period;
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  last = { month, period: { key: start.toISOString().slice(0, 7), start, end } };
  return last.period;
}
