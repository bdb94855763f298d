/**
 * Clips and tool summaries that let no part of a secret through (runtime/transcripts/clip.ts,
 * tool-summary.ts refold; the tenth-set pass's door bugs): a clip never cuts a token in two, and a
 * tool call's input of several lines is redacted before its summary folds the lines into one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clipHead, clipTail } from "../../runtime/transcripts/clip.js";
import { refold, summarizeToolCall } from "../../runtime/transcripts/tool-summary.js";
import { redactLines } from "../../runtime/transcripts/scan.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";

const words = fc.array(fc.stringMatching(/^[A-Za-z0-9=&?%/.:-]{1,40}$/), { minLength: 1, maxLength: 30 });

describe("clipHead and clipTail: at whitespace", () => {
  it("keep whole tokens only, within the length, and the text when it fits", () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 2, max: 200 }), (ws, max) => {
        const text = ws.join(" ");
        for (const [clip, mark] of [[clipHead, "…"], [clipTail, "…"]] as const) {
          const out = clip(text, max, mark);
          if (text.length <= max) {
            expect(out).toBe(text);
            continue;
          }
          expect(out.length).toBeLessThanOrEqual(max);
          // Every token left is a whole token of the text.
          for (const t of out.replace(mark, " ").split(" ").filter(Boolean)) expect(ws).toContain(t);
        }
      }),
      { numRuns: 300, seed: 20261211 },
    );
  });

  it("leave out the token a cut would split (a signed URL's signature, a key's head)", () => {
    const url = `https://files.example.com/x.bin?X-Acme-Credential=ana%2F20261207&X-Acme-Signature=${"ab12".repeat(32)}`;
    expect(clipHead(`echo ${url} done`, 60, "…")).toBe("echo…");
    expect(clipTail(`Deployed with ${url}`, 100, "…")).toBe("…");
    expect(clipTail(`Deployed with ${url} ok`, 100, "…")).toBe("…ok");
  });
});

describe("a tool call's summary of an input of several lines", () => {
  // A typed password, not a generated one: the silent rules take a generated value after `pass show` even folded onto
  // the command's line, so only a typed one shows what the fold loses (the line the command printed it on).
  const pw = "hunter2-Blue-Sky!";
  const command = `$ pass show infra/db\n${pw}`;

  it("is redacted before the fold with redact (mine, exchanges)", () => {
    const call = summarizeToolCall("Bash", { command }, redactLines);
    expect(call.summary).not.toContain(pw);
    expect(call.summary).toContain("[REDACTED:");
  });

  it("is refolded from its redacted input on the hook's path; a one-line input comes back as it is", () => {
    const folded = summarizeToolCall("Bash", { command });
    // Folded first, the line structure the redactor reads is gone: the secret stays.
    expect(redactSecrets(folded.summary).text).toContain(pw);
    expect(refold(folded, (s) => redactSecrets(s).text).summary).not.toContain(pw);
    const one = summarizeToolCall("Bash", { command: "npm test -- --run" });
    expect(refold(one, () => "changed")).toBe(one);
    expect(JSON.stringify(folded)).toBe(JSON.stringify({ name: "Bash", summary: `$ pass show infra/db ${pw}` }));
  });
});
