import { randomFillSync } from "node:crypto";
import { NativeDate } from "./native-date";

// Prefixed, URL-safe, time-ordered ids (contract.md): `prod_` + 10 characters of milliseconds + 16 random
// characters, in Crockford base32 so that string order is creation order. Within one millisecond the random
// part is incremented, so ids made by one process never go backwards.

export const ID_PREFIXES = {
  product: "prod",
  feature: "feat",
  price: "price",
  business: "biz",
  project: "proj",
  apiKey: "key",
  webhook: "wh",
  event: "evt",
  delivery: "whd",
  request: "req",
  usage: "use",
  agent: "agt",
  agentTeam: "team",
  workflow: "wf",
  function: "fn",
  trigger: "trg",
  tool: "tool",
  task: "task",
  execution: "exec",
  oauthClient: "oac",
  oauthCode: "ocd",
  oauthGrant: "ogr",
  oauthToken: "otk",
  idempotency: "idem",
  audit: "aud",
  quotaAlert: "qa",
  rollup: "rup",
  user: "usr",
  membership: "mem",
  account: "acct",
  subscription: "sub",
  invoice: "inv",
  creditEntry: "cre",
  spendAlert: "spa",
  payment: "pay",
  app: "app",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_LEN = 10;
const RANDOM_LEN = 16;

let lastTime = -1;
let lastTimeText = "";
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < TIME_LEN; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes drawn 4 KB at a time (256 ids' worth): one call into the generator per request was a visible share
// of a cheap request's CPU.
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;

function freshRandom(): number[] {
  if (poolAt + RANDOM_LEN > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const digits = new Array<number>(RANDOM_LEN);
  for (let i = 0; i < RANDOM_LEN; i++) digits[i] = pool[poolAt++] & 31;
  return digits;
}

function incremented(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom(); // overflow of 80 bits within one millisecond: practically never
}

export function timeOrderedId(prefix: string, ms = NativeDate.now()): string {
  if (ms === lastTime) {
    lastRandom = incremented(lastRandom);
  } else {
    lastTime = ms;
    lastTimeText = encodeTime(ms);
    lastRandom = freshRandom();
  }
  let random = "";
  for (const d of lastRandom) random += ALPHABET[d];
  return `${prefix}_${lastTimeText}${random}`;
}

export function newId(kind: IdKind): string {
  return timeOrderedId(ID_PREFIXES[kind]);
}

/** The smallest id of this kind made at `ms` or later: ids below it were made before `ms` (a cut-off by creation time). */
export function idTimeBound(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(ms)}`;
}

const ID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Whether `value` has the shape of an id of this kind; a malformed id can then be answered without a query. */
export function isIdOf(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
