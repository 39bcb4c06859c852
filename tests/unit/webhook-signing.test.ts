// Webhook signatures (lib/webhooks/signing.ts): both headers of every delivery, checked as outside receivers
// check them: the standardwebhooks npm package for the Standard Webhooks headers, and for X-Webhook-Signature
// both the platform's verifyPlatformSignature and the function printed in docs/webhooks.md, run side by side.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { generateSecret, platformSignature, signatureHeaders, standardSignature, verifyPlatformSignature } from "@/lib/webhooks/signing";

type Verify = (secret: string, header: string, rawBody: string, nowMs?: number, toleranceSeconds?: number) => boolean;

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = JSON.stringify({ id: "evt_1", type: "product.created", data: { object: "product", name: "Ünïcødé ✓" } });

let docsVerify: Verify;
let tmp: string;

before(async () => {
  // The first TypeScript block of the docs that defines verifyWebhookSignature, imported as a module.
  const md = readFileSync("docs/webhooks.md", "utf8");
  const block = [...md.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((code) => code.includes("export function verifyWebhookSignature"));
  assert.ok(block, "docs/webhooks.md has no ```ts block exporting verifyWebhookSignature");
  tmp = mkdtempSync(path.join(tmpdir(), "docs-verify-"));
  const file = path.join(tmp, "verify.ts");
  writeFileSync(file, block);
  docsVerify = (await import(pathToFileURL(file).href)).verifyWebhookSignature;
  assert.equal(typeof docsVerify, "function");
});

after(() => rmSync(tmp, { recursive: true, force: true }));

test("generateSecret gives whsec_ and the base64 of 32 random bytes, a new one each time", () => {
  const a = generateSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(a.slice(6), "base64").length, 32);
  assert.notEqual(a, generateSecret());
});

test("the platform signature is hex HMAC-SHA256 keyed by the secret string (whsec_ included) over '<ms>.<body>'", () => {
  const ms = 1_767_225_600_123;
  const expected = createHmac("sha256", Buffer.from(SECRET, "utf8")).update(`${ms}.${BODY}`).digest("hex");
  assert.equal(platformSignature(SECRET, ms, BODY), expected);
  const h = signatureHeaders([SECRET], "whd_1", ms, BODY);
  assert.equal(h["X-Webhook-Signature"], `t=${ms},v1=${expected}`);
});

test("the Standard Webhooks headers: id, timestamp in seconds, v1,<base64> keyed by the decoded secret", () => {
  const ms = 1_767_225_600_999;
  const h = signatureHeaders([SECRET], "whd_abc", ms, BODY);
  assert.equal(h["webhook-id"], "whd_abc");
  assert.equal(h["webhook-timestamp"], "1767225600");
  const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`whd_abc.1767225600.${BODY}`).digest("base64");
  assert.equal(h["webhook-signature"], `v1,${expected}`);
  // The package's own signer agrees.
  assert.equal(
    new Webhook(SECRET).sign("whd_abc", new Date(1_767_225_600_000), BODY),
    `v1,${standardSignature(SECRET, "whd_abc", 1_767_225_600, BODY)}`,
  );
});

test("the standardwebhooks package verifies a fresh delivery and returns the payload", () => {
  const secret = generateSecret();
  const h = signatureHeaders([secret], "whd_fresh", Date.now(), BODY);
  const payload = new Webhook(secret).verify(BODY, h) as { id: string };
  assert.equal(payload.id, "evt_1");
});

test("the standardwebhooks package rejects a tampered body, another secret and an old timestamp", () => {
  const secret = generateSecret();
  const wh = new Webhook(secret);
  const h = signatureHeaders([secret], "whd_x", Date.now(), BODY);
  assert.throws(() => wh.verify(BODY.replace("product", "pr0duct"), h), WebhookVerificationError);
  assert.throws(() => new Webhook(generateSecret()).verify(BODY, h), WebhookVerificationError);
  assert.throws(() => wh.verify(BODY, signatureHeaders([secret], "whd_x", Date.now() - 10 * 60_000, BODY)), WebhookVerificationError);
  assert.throws(() => wh.verify(BODY, { ...h, "webhook-id": "whd_other" }), WebhookVerificationError);
});

test("during a rotation both secrets sign: two v1= values and two v1, signatures, each verifying alone", () => {
  const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
  const ms = Date.now();
  const h = signatureHeaders([newSecret, oldSecret], "whd_rot", ms, BODY);
  assert.equal(h["X-Webhook-Signature"].split(",").filter((p) => p.startsWith("v1=")).length, 2);
  assert.equal(h["webhook-signature"].split(" ").length, 2);
  for (const s of [oldSecret, newSecret]) {
    assert.ok(verifyPlatformSignature(s, h["X-Webhook-Signature"], BODY, ms));
    assert.ok(docsVerify(s, h["X-Webhook-Signature"], BODY, ms));
    assert.doesNotThrow(() => new Webhook(s).verify(BODY, h));
  }
  assert.equal(verifyPlatformSignature(generateSecret(), h["X-Webhook-Signature"], BODY, ms), false);
});

// ---- verifyPlatformSignature and the docs' function, case by case

const T = 1_767_225_600_000;
const sig = (secret: string, ms: number, body: string) => platformSignature(secret, ms, body);
const other = "whsec_OtherSecretOtherSecretOtherSecretOther=";

const CASES: { name: string; header: string; body?: string; nowMs?: number; tolerance?: number; valid: boolean }[] = [
  { name: "a valid header", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, valid: true },
  { name: "spaces after commas", header: `t=${T}, v1=${sig(SECRET, T, BODY)}`, valid: true },
  { name: "v1 before t", header: `v1=${sig(SECRET, T, BODY)},t=${T}`, valid: true },
  { name: "a second, wrong v1 first", header: `t=${T},v1=${sig(other, T, BODY)},v1=${sig(SECRET, T, BODY)}`, valid: true },
  { name: "299 s in the past", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, nowMs: T + 299_000, valid: true },
  { name: "exactly 300 s in the past", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, nowMs: T + 300_000, valid: true },
  { name: "301 s in the past", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, nowMs: T + 301_000, valid: false },
  { name: "301 s in the future", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, nowMs: T - 301_000, valid: false },
  { name: "a wider tolerance", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, nowMs: T + 3_600_000, tolerance: 7200, valid: true },
  { name: "a tampered body", header: `t=${T},v1=${sig(SECRET, T, BODY)}`, body: BODY.replace("created", "deleted"), valid: false },
  {
    name: "a re-serialised body",
    header: `t=${T},v1=${sig(SECRET, T, BODY)}`,
    body: JSON.stringify(JSON.parse(BODY), null, 2),
    valid: false,
  },
  { name: "another secret", header: `t=${T},v1=${sig(other, T, BODY)}`, valid: false },
  { name: "the secret without whsec_", header: `t=${T},v1=${sig(SECRET.slice(6), T, BODY)}`, valid: false },
  { name: "a timestamp changed after signing", header: `t=${T + 1},v1=${sig(SECRET, T, BODY)}`, valid: false },
  { name: "the timestamp in seconds", header: `t=${T / 1000},v1=${sig(SECRET, T / 1000, BODY)}`, valid: false },
  { name: "no timestamp", header: `v1=${sig(SECRET, T, BODY)}`, valid: false },
  { name: "no signature", header: `t=${T}`, valid: false },
  { name: "a truncated signature", header: `t=${T},v1=${sig(SECRET, T, BODY).slice(0, 40)}`, valid: false },
  { name: "a non-hex signature", header: `t=${T},v1=${"z".repeat(64)}`, valid: false },
  { name: "a v0 signature", header: `t=${T},v0=${sig(SECRET, T, BODY)}`, valid: false },
  { name: "an empty header", header: "", valid: false },
  { name: "garbage", header: "t=abc,v1=", valid: false },
  { name: "the plain (untimed) form", header: createHmac("sha256", SECRET).update(BODY).digest("hex"), valid: false },
];

for (const c of CASES) {
  test(`X-Webhook-Signature, ${c.name}: ${c.valid ? "accepted" : "rejected"} by the platform's check and by the docs' function`, () => {
    const args = [SECRET, c.header, c.body ?? BODY, c.nowMs ?? T, c.tolerance ?? 300] as const;
    assert.equal(verifyPlatformSignature(...args), c.valid);
    assert.equal(docsVerify(...args), c.valid);
  });
}

test("the docs' function and the platform's check agree on real headers over many secrets, bodies and clocks", () => {
  for (let i = 0; i < 200; i++) {
    const secret = generateSecret();
    const body = JSON.stringify({ i, text: "x".repeat(i % 17), nested: { emoji: "🚀".repeat(i % 3) } });
    const ms = T + i * 7_919;
    const header = signatureHeaders(i % 5 === 0 ? [secret, generateSecret()] : [secret], `whd_${i}`, ms, body)["X-Webhook-Signature"];
    const skew = ((i % 13) - 6) * 60_000; // -6 .. +6 minutes: some inside, some outside the tolerance
    const useSecret = i % 7 === 0 ? generateSecret() : secret;
    const useBody = i % 11 === 0 ? body + " " : body;
    const expected = useSecret === secret && useBody === body && Math.abs(skew) <= 300_000;
    assert.equal(verifyPlatformSignature(useSecret, header, useBody, ms + skew), expected, `case ${i}`);
    assert.equal(docsVerify(useSecret, header, useBody, ms + skew), expected, `case ${i} (docs)`);
  }
});
