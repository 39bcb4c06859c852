import { now } from "@/lib/clock";

// The spec's response envelopes: single, collection and (in error-mapper.ts) error.

export interface Meta {
  timestamp: string;
  requestId: string;
  warning?: string;
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
  nextCursor: string | null;
}

export function meta(requestId: string, warning?: string): Meta {
  return warning ? { timestamp: now().toISOString(), requestId, warning } : { timestamp: now().toISOString(), requestId };
}

export const singleEnvelope = (data: unknown, m: Meta) => ({ data, meta: m });

/** JSON text already in its wire form (a list page's rows made by the database): written into an envelope as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A collection's envelope, `{"data":[…],"pagination":…,"meta":…}`, as JSON text: JSON.stringify's output for it, but
 * each item stringified alone so that a RawJson item goes in as its text (JSON.parse and stringify again of rows the
 * database already wrote as JSON was a tenth of a list page's CPU).
 */
export function collectionEnvelopeJson(data: unknown[], pagination: Pagination, m: Meta): string {
  let items = "";
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    if (i) items += ",";
    items += item instanceof RawJson ? item.text : (JSON.stringify(item) ?? "null");
  }
  return `{"data":[${items}],"pagination":${JSON.stringify(pagination)},"meta":${JSON.stringify(m)}}`;
}
