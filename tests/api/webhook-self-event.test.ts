// A new endpoint is not told about its own creation: the resource.created event of a webhook goes to the other
// endpoints that listen for it, never to the one it describes (issue 20: "every new endpoint receives a
// resource.created event about itself").
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness } from "../helpers/api";
import { createEndpoint, deliveriesOf, waitForDeliveries } from "../helpers/receiver";

// Deliveries are rows written with the event, in the same transaction; no receiver is needed to see them. The
// URLs point at a closed port on loopback: attempts fail, which does not matter here.
const url = (path: string) => `http://127.0.0.1:9/${path}`;

test("an endpoint subscribed to '*' gets no resource.created about itself, and an older one still hears of it", async () => {
  const biz = await seedBusiness();
  const first = await createEndpoint(biz.test, { url: url("first"), events: ["*"] });
  const second = await createEndpoint(biz.test, { url: url("second"), events: ["resource.created"] });

  // The first endpoint hears of the second one's creation ...
  const firstList = await waitForDeliveries(biz.test, first.id, (l) => l.some((d) => d.eventType === "resource.created"));
  const aboutSecond = firstList.filter((d) => d.eventType === "resource.created" && JSON.parse(d.request.body).data.id === second.id);
  assert.equal(aboutSecond.length, 1, JSON.stringify(firstList.map((d) => d.eventType)));
  // ... but of its own creation neither endpoint hears anything.
  const aboutItself = (list: any[], id: string) =>
    list.filter((d) => d.eventType === "resource.created" && JSON.parse(d.request.body).data.id === id);
  assert.deepEqual(aboutItself(firstList, first.id), [], "the first endpoint got its own resource.created");
  assert.deepEqual(aboutItself(await deliveriesOf(biz.test, second.id), second.id), [], "the second endpoint got its own resource.created");
  assert.equal((await deliveriesOf(biz.test, second.id)).length, 0);

  // The event itself is still recorded for GET /v1/events.
  const events = await biz.test.get("/v1/events?type=resource.created&limit=100");
  assert.equal(events.status, 200, events.text);
  assert.ok(events.body.data.some((e: any) => e.data.id === first.id));
  assert.ok(events.body.data.some((e: any) => e.data.id === second.id));
});
