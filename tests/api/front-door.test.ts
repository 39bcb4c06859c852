// The API's front door on node:http (lib/server/node-front-door.ts): malformed URLs, paths outside any version and
// oversized bodies get the spec's JSON envelope, never Next's HTML or a plain-text 500, and a refused upload does
// not leave its keep-alive connection hanging.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { BASE_URL, expectError, request, seedBusiness } from "../helpers/api";

const KEY_LESS = {};

test("a bad percent-encoding in a path id is a 400 in the envelope, with or without a key", async () => {
  const biz = await seedBusiness();
  for (const path of ["/v1/products/%ff", "/v1/products/%E0%A4%A/prices", "/v1/webhooks/%zz/deliveries"]) {
    for (const opts of [KEY_LESS, { key: biz.testKey }]) {
      const res = await request("GET", path, opts);
      assert.match(res.headers.get("content-type") ?? "", /application\/json/, path);
      const error = expectError(res, 400, "INVALID_PARAMETER");
      assert.equal(error.field, "path");
    }
  }
});

test("paths under the API's prefixes outside any route or version answer the JSON envelope", async () => {
  const v9 = expectError(await request("GET", "/v9/products"), 404, "ROUTE_NOT_FOUND");
  assert.match(v9.message, /API version v9 does not exist/);
  expectError(await request("GET", "/v1x"), 404, "ROUTE_NOT_FOUND");
  expectError(await request("POST", "/v1/no-such-thing", { body: {} }), 404, "ROUTE_NOT_FOUND");
  const wrongMethod = await request("PUT", "/v1/products");
  expectError(wrongMethod, 405, "METHOD_NOT_ALLOWED");
  assert.match(wrongMethod.headers.get("allow") ?? "", /POST/);
});

test("the portal and docs still come from Next", async () => {
  const res = await fetch(`${BASE_URL}/docs/errors`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/html/);
});

/** Sends a chunked body of `bytes` bytes on a raw socket and reads what comes back until the server closes. */
function chunkedUpload(key: string, bytes: number): Promise<{ head: string; closed: boolean }> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = "";
    let settled = false;
    const done = (closed: boolean) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve({ head: received.split("\r\n\r\n")[0], closed });
      }
    };
    // The server must close the connection after its 413; if it keeps it open we give up after 10 s and say so.
    const timer = setTimeout(() => done(false), 10_000);
    socket.on("data", (d) => {
      received += d.toString("latin1");
    });
    socket.on("end", () => done(true));
    socket.on("close", () => done(true));
    socket.on("error", (e) => {
      if (received) done(true);
      else reject(e);
    });
    socket.on("connect", async () => {
      socket.write(
        `POST /v1/products HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, "a");
      for (let sent = 0; sent < bytes && !socket.destroyed && !received; sent += chunk.length) {
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write("\r\n");
        await new Promise((r) => setImmediate(r));
      }
    });
  });
}

test("an oversized chunked body is answered 413 in the envelope, and the connection is closed", async () => {
  const biz = await seedBusiness();
  const { head, closed } = await chunkedUpload(biz.testKey, 2 * 1024 * 1024);
  assert.match(head, /^HTTP\/1\.1 413 /);
  assert.match(head, /\r\nconnection: close/i);
  assert.ok(closed, "the server closed the connection after the 413");
});
