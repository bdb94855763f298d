// The doors to a model server that do not go through the judging lane's request() (openai/lane.ts):
// the daily run's enrichment prose lane and the generative lane (the rules wing's writer, the
// ladder's reviewer). Each sends to a local OpenAI-compatible server on loopback through the real
// openai SDK; the request bodies the server received hold no secret in clear: not a token of a
// known form, and not the owner's own bare value, which the texts they send were written before
// the owner's store knew (scripts/walk-privacy.mjs's model-lane check, docs/privacy.md).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../eval/prng.js";
import { BudgetBook, generativeLane, OpenAILaneSchema } from "../../runtime/engine/index.js";
import { openAiProseLane } from "../../runtime/jobs/daily/enrich-openai.js";
import { setKnownSecrets } from "../../runtime/privacy/known-store.js";
import type { Erratum } from "../../schemas/erratum.js";
import { completion, startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";

// Drawn from a seeded PRNG: the repository holds no credential.
const g = mulberry32(3407);
const draw = (n: number, a: string): string => Array.from({ length: n }, () => a[Math.floor(g() * a.length)]).join("");
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const token = `ghp_${draw(34, ALNUM)}7Q`;
// The owner's own value (a .env's ORDERS_DB_PASS): no form tells it, only the owner's store.
const ownValue = `Wq${draw(18, ALNUM)}4z`;

let server: FakeServer;
beforeEach(async () => {
  setKnownSecrets({ values: [ownValue], store: null });
  server = await startFakeOpenAI({ chat: () => ({ json: completion("{}") }) });
});
afterEach(async () => {
  setKnownSecrets(null);
  await server.close();
});

const sent = (): string => server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body).join("\n");

describe("what leaves for a model, outside the judging lane", () => {
  it("the enrichment prose lane: a row holding a token and the owner's value in clear is sent redacted", async () => {
    const lane = openAiProseLane({ apiKey: "k", model: "m", baseURL: server.url, maxRetries: 0 });
    const row = {
      id: "er-20261207-000001",
      complaint: `No, that's wrong: it printed ${token} and the staging password ${ownValue}`,
      kind: "correction",
      context: { requested: `deploy with ${ownValue}`, response_preview: `Your token is ${token}`, doing: `curl -H 'x-token: ${token}'` },
    } as unknown as Erratum;
    await lane.enrich(row);
    const body = sent();
    expect(body).toContain("Complaint: No, that's wrong: it printed [REDACTED:");
    expect(body).not.toContain(token);
    expect(body).not.toContain(ownValue);
  });

  it("the generative lane: every message is sent redacted", async () => {
    const cfg = OpenAILaneSchema.parse({ baseURL: server.url, model: "m", maxRetries: 0 });
    const lane = generativeLane(cfg, "k", new BudgetBook({}, {}, {}), { sleep: async () => undefined, random: () => 0.5, now: () => 0 });
    const out = await lane.generate(
      [
        { role: "system", content: "You write one recommendation." },
        { role: "user", content: `## Related upgrades\n- up-1 (open): rotate ${token}; the value ${ownValue} is in the deploy notes` },
      ],
      { caller: "errata-coverage" },
    );
    expect(out.ok).toBe(true);
    const body = sent();
    expect(body).toContain("## Related upgrades");
    expect(body).not.toContain(token);
    expect(body).not.toContain(ownValue);
  });
});
