// The portal's settings writes go through the same domain functions as everything else (lib/businesses/settings.ts),
// so they leave audit entries that the API can read back.
import { test, expect } from "@playwright/test";
import { bearer, createKey, hydrated, signUp, uniqueEmail } from "./helpers";

test("saving settings and adding a member are audited as the signed-in user", async ({ page, request }) => {
  await signUp(page);
  await page.goto("/portal/settings");
  await hydrated(page.getByRole("button", { name: "Save" }));
  await page.getByLabel("Business name").fill("Renamed Business");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();

  const member = uniqueEmail("teammate");
  await page.locator("#member-email").fill(member);
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByText(member)).toBeVisible();

  const key = await createKey(page, "audit reader");
  const read = async (action: string) => {
    const res = await request.get(`/v1/audit-logs?action=${action}`, { headers: bearer(key) });
    expect(res.status()).toBe(200);
    return (await res.json()).data as { action: string; actorType: string; details?: Record<string, unknown> }[];
  };
  // Audit entries are written in batches (within a second).
  await expect.poll(async () => (await read("business.settings_updated")).length, { timeout: 10_000 }).toBe(1);
  const [updated] = await read("business.settings_updated");
  expect(updated.actorType).toBe("user");
  expect(updated.details?.businessName).toBe("Renamed Business");
  await expect.poll(async () => (await read("member.added")).map((e) => e.details?.email), { timeout: 10_000 }).toEqual([member]);
});
