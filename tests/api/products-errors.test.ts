// The error table of the spec and contract, as a client meets it on the products API: codes, fields,
// suggestions, the envelope on every error, and no 500 for any input a client can send.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { seedBusiness, createProduct, request, expectError, assertErrorEnvelope, BASE_URL } from "../helpers/api";

/**
 * POSTs `chunks` chunks of JSON-string filler with Transfer-Encoding: chunked (no Content-Length) and stops
 * sending as soon as the server answers, as a well-behaved client does when refused early.
 */
function postChunked(path: string, key: string, chunks: number, size: number): Promise<{ status: number; body: string }> {
  const url = new URL(path, BASE_URL);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "transfer-encoding": "chunked" },
      },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    const filler = "a".repeat(size);
    let sent = 0;
    const write = () => {
      if (sent === 0) req.write('{"name":"x","type":"API","description":"');
      while (sent < chunks && !answered) {
        sent++;
        if (!req.write(filler)) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered) req.end('"}');
    };
    write();
  });
}

test("a missing name is 400 validation_error MISSING_REQUIRED_FIELD on name", async () => {
  const biz = await seedBusiness("enterprise");
  const res = await biz.test.post("/v1/products", { type: "API" });
  const err = expectError(res, 400, "MISSING_REQUIRED_FIELD");
  assert.equal(err.type, "validation_error");
  assert.equal(err.field, "name");
  assertErrorEnvelope(res);
  const noType = expectError(await biz.test.post("/v1/products", { name: "x" }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(noType.field, "type");
  // An empty body is an empty object: the first missing field is named.
  const empty = await request("POST", "/v1/products", { key: biz.testKey });
  assert.equal(expectError(empty, 400, "MISSING_REQUIRED_FIELD").field, "name");
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 0);
});

test("a product type outside the set is 400 INVALID_TYPE on type, suggesting the four types", async () => {
  const biz = await seedBusiness("enterprise");
  for (const type of ["Robot", "api", "", 7]) {
    const res = await biz.test.post("/v1/products", { name: "x", type });
    const err = expectError(res, 400, "INVALID_TYPE");
    assert.equal(err.type, "validation_error");
    assert.equal(err.field, "type");
    for (const t of ["SaaS", "API", "Data", "Headless"]) assert.ok(err.suggestion?.includes(t), `suggestion lists ${t}: ${err.suggestion}`);
  }
  const p = await createProduct(biz.test);
  const patch = expectError(await biz.test.patch(`/v1/products/${p.id}`, { type: "Robot" }), 400, "INVALID_TYPE");
  assert.equal(patch.field, "type");
});

test("malformed JSON is 400 INVALID_JSON", async () => {
  const biz = await seedBusiness("enterprise");
  for (const raw of ['{"name": "x", "type": ', "{name: 'x'}", "not json", '{"name":"x"}}', "\u0000"]) {
    const res = await request("POST", "/v1/products", { key: biz.testKey, rawBody: raw, headers: { "content-type": "application/json" } });
    const err = expectError(res, 400, "INVALID_JSON");
    assert.equal(err.type, "validation_error");
  }
  const p = await createProduct(biz.test);
  const patch = await request("PATCH", `/v1/products/${p.id}`, {
    key: biz.testKey,
    rawBody: "{",
    headers: { "content-type": "application/json" },
  });
  expectError(patch, 400, "INVALID_JSON");
});

test("a body sent as another content type is 400 INVALID_JSON", async () => {
  const biz = await seedBusiness("enterprise");
  const body = JSON.stringify({ name: "x", type: "API" });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
    const res = await request("POST", "/v1/products", { key: biz.testKey, rawBody: body, headers: { "content-type": type } });
    expectError(res, 400, "INVALID_JSON");
  }
  // A JSON-suffixed media type is JSON.
  const vendor = await request("POST", "/v1/products", {
    key: biz.testKey,
    rawBody: body,
    headers: { "content-type": "application/merge-patch+json" },
  });
  assert.equal(vendor.status, 201);
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 1);
});

test("a body over 1 MB is 413 PAYLOAD_TOO_LARGE, declared or streamed", async () => {
  const biz = await seedBusiness("enterprise");
  const big = JSON.stringify({ name: "x", type: "API", description: "a".repeat(1024 * 1024 + 10) });
  const res = await request("POST", "/v1/products", { key: biz.testKey, rawBody: big, headers: { "content-type": "application/json" } });
  const err = expectError(res, 413, "PAYLOAD_TOO_LARGE");
  assertErrorEnvelope(res);
  assert.equal(typeof err.message, "string");

  // No Content-Length (chunked): the server must stop reading at the limit by itself and still answer 413.
  const streamed = await postChunked("/v1/products", biz.testKey, 40, 64 * 1024);
  assert.equal(streamed.status, 413);
  assert.equal(JSON.parse(streamed.body).error.code, "PAYLOAD_TOO_LARGE");
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 0);

  // Just under the limit is fine.
  const fits = JSON.stringify({ name: "x", type: "API", description: "a".repeat(4000) });
  assert.equal(
    (await request("POST", "/v1/products", { key: biz.testKey, rawBody: fits, headers: { "content-type": "application/json" } })).status,
    201,
  );
});

test("an unknown field is 400 INVALID_FIELD naming it", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const patch = expectError(await biz.test.patch(`/v1/products/${p.id}`, { colour: "red" }), 400, "INVALID_FIELD");
  assert.equal(patch.type, "validation_error");
  assert.equal(patch.field, "colour");
  assert.ok(patch.message.includes("colour"));
  const nested = expectError(await biz.test.patch(`/v1/products/${p.id}`, { interfaces: { hasGraphQL: true } }), 400, "INVALID_FIELD");
  assert.equal(nested.field, "interfaces.hasGraphQL");
  const post = expectError(await biz.test.post("/v1/products", { name: "x", type: "API", price: 5 }), 400, "INVALID_FIELD");
  assert.equal(post.field, "price");
  // Fields the server owns are not writable.
  for (const field of ["id", "createdAt", "environment"]) {
    assert.equal(expectError(await biz.test.patch(`/v1/products/${p.id}`, { [field]: "x" }), 400, "INVALID_FIELD").field, field);
  }
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).body.data.name, p.name);
});

test("a field of the wrong type is 400 INVALID_FIELD, not a missing field", async () => {
  const biz = await seedBusiness("enterprise");
  const cases: [Record<string, unknown>, string][] = [
    [{ name: 5, type: "API" }, "name"],
    [{ name: null, type: "API" }, "name"],
    [{ name: ["x"], type: "API" }, "name"],
    [{ name: "x", type: "API", isActive: "yes" }, "isActive"],
    [{ name: "x", type: "API", industries: "Energy" }, "industries"],
    [{ name: "x", type: "API", industries: [5] }, "industries[0]"],
    [{ name: "x", type: "API", interfaces: { hasAPI: "true" } }, "interfaces.hasAPI"],
    [{ name: "x", type: "API", description: 12 }, "description"],
    [{ name: "", type: "API" }, "name"],
    [{ name: "x".repeat(201), type: "API" }, "name"],
  ];
  for (const [body, field] of cases) {
    const err = expectError(await biz.test.post("/v1/products", body), 400, "INVALID_FIELD");
    assert.equal(err.type, "validation_error");
    assert.equal(err.field, field, JSON.stringify(body).slice(0, 80));
  }
  const p = await createProduct(biz.test);
  assert.equal(expectError(await biz.test.patch(`/v1/products/${p.id}`, { name: 5 }), 400, "INVALID_FIELD").field, "name");
  assert.equal(expectError(await biz.test.patch(`/v1/products/${p.id}`, { isActive: null }), 400, "INVALID_FIELD").field, "isActive");
  for (const body of [[], "a string", 42, null]) {
    const res = await biz.test.patch(`/v1/products/${p.id}`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assertErrorEnvelope(res);
  }
});

test("ids that name no product are 404 RESOURCE_NOT_FOUND", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const price = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "x", type: "usage", currency: "USD", amount: 1 });
  const bad = [
    "garbage",
    "prod_00000000000000000000000000",
    "prod_01ZZZZZZZZZZZZZZZZZZZZZZZZ",
    price.body.data.id, // a price id is not a product id
    biz.businessId,
    "a".repeat(5000),
    `prod_${"A".repeat(5000)}`,
    "' OR '1'='1",
    "1; DROP TABLE Product; --",
    "prod_%' OR 1=1 --",
    "日本語",
    "prod_✓",
    "%00",
    "null",
  ];
  for (const id of bad) {
    const path = `/v1/products/${encodeURIComponent(id)}`;
    for (const res of [
      await biz.test.get(path),
      await biz.test.patch(path, { name: "x" }),
      await biz.test.delete(path),
      await biz.test.get(`${path}/prices`),
    ]) {
      const err = expectError(res, 404, "RESOURCE_NOT_FOUND");
      assert.equal(err.type, "not_found_error");
      assertErrorEnvelope(res);
      // The message never echoes an unsafe id back.
      assert.ok(!err.message.includes("DROP") && !err.message.includes("'1'"), err.message);
    }
  }
  expectError(await biz.test.get(`/v1/prices/${"x".repeat(5000)}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/features/${p.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).status, 200);
});

test("an unknown route is 404 ROUTE_NOT_FOUND", async () => {
  const biz = await seedBusiness("enterprise");
  for (const path of ["/v1/widgets", "/v1/products/x/y/z", "/v1/product", "/v1/products/x/refunds"]) {
    const res = await biz.test.get(path);
    const err = expectError(res, 404, "ROUTE_NOT_FOUND");
    assert.equal(err.type, "not_found_error");
    assertErrorEnvelope(res);
  }
  expectError(await biz.test.post("/v1/widgets", { a: 1 }), 404, "ROUTE_NOT_FOUND");
});

test("a method the path does not serve is 405 METHOD_NOT_ALLOWED with Allow", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const cases: [string, string, string[]][] = [
    ["DELETE", "/v1/products", ["GET", "POST"]],
    ["PUT", "/v1/products", ["GET", "POST"]],
    ["PATCH", "/v1/products", ["GET", "POST"]],
    ["PUT", `/v1/products/${p.id}`, ["DELETE", "GET", "PATCH"]],
    ["POST", `/v1/products/${p.id}`, ["DELETE", "GET", "PATCH"]],
    ["GET", `/v1/products/${p.id}/activate`, ["POST"]],
    ["DELETE", `/v1/products/${p.id}/prices`, ["GET", "POST"]],
  ];
  for (const [method, path, allowed] of cases) {
    const res = await request(method, path, { key: biz.testKey });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    assertErrorEnvelope(res);
    const allow = (res.headers.get("allow") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .sort();
    assert.deepEqual(allow, allowed, `${method} ${path}`);
  }
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).status, 200);
});

test("no key, or a key that does not exist, is 401 INVALID_API_KEY", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  for (const [method, path] of [
    ["GET", "/v1/products"],
    ["POST", "/v1/products"],
    ["GET", `/v1/products/${p.id}`],
    ["DELETE", `/v1/products/${p.id}`],
  ]) {
    const res = await request(method, path);
    const err = expectError(res, 401, "INVALID_API_KEY");
    assert.equal(err.type, "authentication_error");
    assertErrorEnvelope(res);
  }
  const wrongKey = `${biz.testKey.slice(0, -4)}${biz.testKey.endsWith("aaaa") ? "bbbb" : "aaaa"}`;
  for (const key of ["sk_test_nope", wrongKey, "x".repeat(5000)]) {
    const res = await request("GET", "/v1/products", { key });
    expectError(res, 401, "INVALID_API_KEY");
    assert.ok(!res.text.includes(key.slice(0, 40)) || key.length < 20, "the key is not echoed back");
  }
  // Nothing was deleted by the unauthenticated DELETE.
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).status, 200);
});

test("hostile input never produces a 500, and every error uses the envelope", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, { name: "Target", description: "for hostile input" });
  const json = { "content-type": "application/json" };
  const probes: { method: string; path: string; rawBody?: string; headers?: Record<string, string> }[] = [];
  const bodies = [
    "null",
    "[]",
    "[[[[[[[[[[]]]]]]]]]]",
    '"text"',
    "123",
    "true",
    "{}",
    '{"__proto__":{"isActive":false},"name":"x","type":"API"}',
    '{"constructor":{"prototype":{}},"name":"x","type":"API"}',
    `${"[".repeat(50000)}${"]".repeat(50000)}`,
    '{"name":"\\u0000","type":"API"}',
    '{"name":"a\\u0000b","type":"API","description":"\\u0000"}',
    '{"name":"\\ud800","type":"API"}',
    '{"name":"x","type":"API","industries":["\\u0000"]}',
    '{"name":"x","type":"API","description":"' + "é".repeat(3000) + '"}',
    '{"name":"x","type":"API","isActive":1e999}',
    '{"name":"x","type":"API","interfaces":[]}',
    '{"name":"x","type":"API","interfaces":null}',
    '{"name":"x","type":"API","industries":' + JSON.stringify(Array.from({ length: 60 }, (_, i) => `i${i}`)) + "}",
    '{"name":"x","type":"API","name":"dup"}',
    "\uFEFF{}",
    '{"name":"x","type":"API"}garbage',
  ];
  for (const raw of bodies) {
    probes.push({ method: "POST", path: "/v1/products", rawBody: raw, headers: json });
    probes.push({ method: "PATCH", path: `/v1/products/${p.id}`, rawBody: raw, headers: json });
  }
  const queries = [
    "limit=99999999999999999999",
    "offset=99999999999999999999",
    "limit=1&limit=2",
    "sort=-",
    "sort=--name",
    "sort=%00",
    "fields=",
    "fields=-",
    "fields=%00",
    "expand=%00",
    "q=%00",
    `q=${"x".repeat(5000)}`,
    "q=%25%25%25",
    "q=%5C",
    "q=%27%3B%20DROP%20TABLE%20Product%3B",
    "name=%00",
    "name[gte]=%00",
    "description=%00",
    "business.name=%00",
    "id=%00",
    `name=${"x".repeat(5000)}`,
    "createdAt[gte]=0000-01-01",
    "createdAt[gte]=0000-12-31T23:59:59Z",
    "createdAt[lt]=9999-12-31",
    "createdAt[gte]=275760-09-13",
    "createdAt[gte]=2026-02-31",
    "createdAt[gte]=2026-01-01T25:00:00Z",
    "updatedAt[lt]=1970-01-01",
    "price[lt]=1e999",
    "price[lt]=-1e308",
    "price[lt]=NaN",
    "price[lt]=0x10",
    "price=1,2,3",
    "isActive=true,false",
    "type=API,API,API",
    `type=${Array(200).fill("API").join(",")}`,
    "price[gte]=",
    "name[ne]=",
    "name[gt]=a&name[lt]=z",
    "hasOwnProperty=1",
    "valueOf=1",
    "constructor[gte]=1",
    "business.constructor=1",
    "__defineGetter__=1",
    "name[__proto__]=1",
    "cursor=",
    "cursor=%00",
    "cursor=eyJzIjoiLWNyZWF0ZWRBdCwtaWQiLCJ2IjpbbnVsbCxudWxsXSwiaSI6IngifQ",
    "api_key=sk_test_x",
    "version=v9",
    "api-version=%00",
    "sort=name&cursor=eyJzIjoibmFtZSxpZCIsInYiOlt7fSxbXV0sImkiOiJ4In0",
  ];
  for (const q of queries) probes.push({ method: "GET", path: `/v1/products?${q}` });
  for (const q of ["fields=%00", "expand=%00", "fields=-", "unknown=1", "fields=name&fields=type"])
    probes.push({ method: "GET", path: `/v1/products/${p.id}?${q}` });
  // Not probed: path segments that are not valid UTF-8 once decoded (%FF, %ED%A0%80). Next.js's router fails on
  // them with its own plain-text 500 before any route code runs (vercel/next.js#92557).
  for (const id of ["%00", "%E2%82%AC", "prod_%00", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "a".repeat(8000), "${7*7}", "{{7*7}}"]) {
    probes.push({ method: "GET", path: `/v1/products/${id}` });
    probes.push({
      method: "POST",
      path: `/v1/products/${id}/prices`,
      rawBody: '{"name":"x","type":"usage","currency":"USD","amount":1}',
      headers: json,
    });
    probes.push({ method: "GET", path: `/v1/prices/${id}` });
  }
  probes.push({
    method: "POST",
    path: "/v1/products",
    rawBody: '{"name":"x","type":"API"}',
    headers: { "content-type": "application/json; charset=utf-16" },
  });
  probes.push({
    method: "POST",
    path: "/v1/products",
    rawBody: '{"name":"x","type":"API"}',
    headers: { "content-type": "application/json", "idempotency-key": "k".repeat(300) },
  });
  probes.push({
    method: "POST",
    path: "/v1/products",
    rawBody: '{"name":"x","type":"API"}',
    headers: { "content-type": "application/json", "idempotency-key": "key with spaces" },
  });
  probes.push({
    method: "POST",
    path: `/v1/products/${p.id}/prices`,
    rawBody: '{"name":"x","type":"usage","currency":"USD","amount":1,"includedQuantity":3000000000}',
    headers: json,
  });
  probes.push({
    method: "POST",
    path: `/v1/products/${p.id}/prices`,
    rawBody: '{"name":"x","type":"usage","currency":"USD","amount":1,"minVolume":1e15}',
    headers: json,
  });
  probes.push({
    method: "POST",
    path: `/v1/products/${p.id}/prices`,
    rawBody: '{"name":"x","type":"usage","currency":"USD","amount":1e308}',
    headers: json,
  });
  probes.push({
    method: "POST",
    path: `/v1/products/${p.id}/prices`,
    rawBody: '{"name":"x","type":"usage","currency":"\\u0000","amount":1}',
    headers: json,
  });
  probes.push({ method: "POST", path: `/v1/products/${p.id}/features`, rawBody: '{"name":"x","value":"\\u0000"}', headers: json });

  const failures: string[] = [];
  for (const probe of probes) {
    const res = await request(probe.method, probe.path, { key: biz.testKey, rawBody: probe.rawBody, headers: probe.headers });
    const label = `${probe.method} ${probe.path.slice(0, 80)} ${(probe.rawBody ?? "").slice(0, 60)}`;
    if (res.status >= 500) failures.push(`${label} → ${res.status} ${res.text.slice(0, 200)}`);
    if (res.status >= 400) {
      try {
        assertErrorEnvelope(res);
      } catch (e) {
        failures.push(`${label} → ${(e as Error).message}`);
      }
      if (/at \w+ \(|prisma|SELECT |sqlite|postgres/i.test(res.text)) failures.push(`${label} leaks internals: ${res.text.slice(0, 200)}`);
    }
  }
  assert.deepEqual(failures, []);
  // The target product survived all of it.
  const after = await biz.test.get(`/v1/products/${p.id}`);
  assert.equal(after.status, 200);
});
