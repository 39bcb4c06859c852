// The API credential: `Authorization: Bearer <key>` or `?api_key=`; anything malformed is a 401 that never
// repeats what was sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors";
import { extractCredential } from "@/lib/auth/credentials";

const KEY = "sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

const extract = (headers: Record<string, string> = {}, query = "") => extractCredential(new Headers(headers), new URLSearchParams(query));

function refused(headers: Record<string, string>, query = "", sent?: string): ApiError {
  try {
    extract(headers, query);
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${e}`);
    assert.equal(e.status, 401);
    assert.equal(e.type, "authentication_error");
    assert.equal(e.code, "INVALID_API_KEY");
    assert.match(e.headers?.["WWW-Authenticate"] ?? "", /^Bearer/);
    if (sent) {
      assert.ok(!e.message.includes(sent), `the message repeats what was sent: ${e.message}`);
      assert.ok(!(e.suggestion ?? "").includes(sent));
    }
    return e;
  }
  assert.fail("the credential was accepted");
}

test("a Bearer header yields the key", () => {
  assert.equal(extract({ authorization: `Bearer ${KEY}` }), KEY);
  assert.equal(extract({ authorization: `bearer ${KEY}` }), KEY);
});

test("the api_key query parameter yields the key", () => {
  assert.equal(extract({}, `api_key=${KEY}`), KEY);
});

test("the header wins over the query parameter", () => {
  assert.equal(extract({ authorization: `Bearer ${KEY}` }, "api_key=sk_test_other"), KEY);
});

test("a malformed Authorization header is a 401 that does not echo the header", () => {
  refused({ authorization: `Basic ${KEY}` }, "", KEY);
  refused({ authorization: KEY }, "", KEY);
  refused({ authorization: `Token ${KEY}` }, "", KEY);
  refused({ authorization: `Bearer ${KEY} extra-secret-part` }, "", "extra-secret-part");
  refused({ authorization: "Bearer" });
  refused({ authorization: "Bearer    " });
});

test("a malformed header is refused even when a query key is present", () => {
  refused({ authorization: "Basic Zm9vOmJhcg==" }, `api_key=${KEY}`, "Zm9vOmJhcg==");
});

test("no credential at all is a 401 telling how to send one", () => {
  const e = refused({});
  assert.match(e.message, /Authorization: Bearer/);
  refused({}, "api_key=");
});
