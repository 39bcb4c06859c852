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
  refund: "rfd",
  paymentMethod: "pmd",
  app: "app",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_LEN = 10;
const RANDOM_LEN = 16;

let lastTime = -1;
let lastTimeText = "";
// The random part's digits (0–31), drawn afresh each millisecond and incremented in place within one, and their
// characters' codes, written by String.fromCharCode at once: a concatenation per character made 16 strings an id,
// about 0.8 KB of garbage for every request.
const lastRandom = new Array<number>(RANDOM_LEN).fill(0);
const randomCodes = new Array<number>(RANDOM_LEN).fill(0);
const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

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

function drawRandom(): void {
  if (poolAt + RANDOM_LEN > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = 0; i < RANDOM_LEN; i++) lastRandom[i] = pool[poolAt++] & 31;
}

function incrementRandom(): void {
  for (let i = RANDOM_LEN - 1; i >= 0; i--) {
    if (lastRandom[i] < 31) {
      lastRandom[i]++;
      return;
    }
    lastRandom[i] = 0;
  }
  drawRandom(); // overflow of 80 bits within one millisecond: practically never
}

export function timeOrderedId(prefix: string, ms = NativeDate.now()): string {
  if (ms === lastTime) {
    incrementRandom();
  } else {
    lastTime = ms;
    lastTimeText = encodeTime(ms);
    drawRandom();
  }
  for (let i = 0; i < RANDOM_LEN; i++) randomCodes[i] = ALPHABET_CODES[lastRandom[i]];
  return `${prefix}_${lastTimeText}${String.fromCharCode.apply(null, randomCodes)}`;
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
