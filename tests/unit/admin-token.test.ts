// The administrator's token (lib/admin/admin-token.ts): only `Bearer <PLATFORM_ADMIN_TOKEN>` exactly is let in, and
// without a configured token nobody is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkAdminToken } from "@/lib/admin/admin-token";

const TOKEN = "s3cret-admin-token";

test("only the exact bearer token is allowed", () => {
  assert.equal(checkAdminToken(`Bearer ${TOKEN}`, TOKEN), "allowed");
  assert.equal(checkAdminToken(`bearer ${TOKEN}`, TOKEN), "allowed"); // the scheme is case-insensitive
  for (const header of [
    null,
    "",
    "Bearer",
    "Bearer ",
    `Bearer ${TOKEN.toUpperCase()}`,
    TOKEN,
    `Basic ${TOKEN}`,
    `Bearer ${TOKEN} `,
    `Bearer ${TOKEN}x`,
    `Bearer ${TOKEN.slice(1)}`,
  ]) {
    assert.equal(checkAdminToken(header, TOKEN), "refused", String(header));
  }
});

test("without a configured token (unset or empty) nobody is the administrator", () => {
  for (const configured of [undefined, ""]) {
    for (const header of [null, "Bearer ", "Bearer undefined", `Bearer ${TOKEN}`])
      assert.equal(checkAdminToken(header, configured), "unconfigured");
  }
});
