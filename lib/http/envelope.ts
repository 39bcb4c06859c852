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

export const collectionEnvelope = (data: unknown[], pagination: Pagination, m: Meta) => ({ data, pagination, meta: m });
