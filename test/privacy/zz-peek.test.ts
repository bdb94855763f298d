import { join } from "node:path";
import { it } from "vitest";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { viewsOf } from "../../runtime/privacy/text-views.js";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus } from "./corpus.js";
import { randFor, TRANSFORMS } from "./metamorphic.js";
const FILES = [CORPUS_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const sets = FILES.map((f) => loadCorpus(f));
const secrets = sets.flatMap((s) => s.secrets);
const looks = sets.flatMap((s) => s.lookAlikes);
it("peek", () => {
  for (const q of (process.env["PEEK"] ?? "").split(",").filter(Boolean)) {
    const [tn, id] = q.split(":");
    const s = secrets.find((x) => x.id === id) ?? looks.find((x) => x.id === id) as any;
    const t = TRANSFORMS.find((x) => x.name === tn);
    const x = t ? t.apply(s.text, s.secret ?? "", randFor(s.id, t.name))! : { text: s.text };
    console.log(JSON.stringify({ tn, id, in: x.text, view: viewsOf(x.text).map((v) => v.text), out: redactSecrets(x.text).text }));
  }
});
