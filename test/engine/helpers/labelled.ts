import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import type { TrainingSet } from "../../../runtime/engine/embedded/train.js";
import { makeExchange } from "./fixtures.js";

import { mulberry32 } from "../../../eval/prng.js";
export { mulberry32 };

const UNHAPPY = ["No, that's wrong.", "That is not what I asked for.", "You broke the build again.", "Wrong file, undo that.", "Why did you delete my tests?!"];
const HAPPY = ["Thanks, looks good.", "Great, now add a README.", "Perfect. Next, run the tests.", "Nice. Can you also lint it?", "OK, commit it please."];

/**
 * A seeded labelled set: `sessions` sessions of 5 exchanges, three raters per exchange on
 * detect.unhappy (each flips the truth with probability `noise`).
 */
export function syntheticSet(seed: number, sessions = 60, noise = 0.1, name = "synth"): TrainingSet {
  const rand = mulberry32(seed);
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  for (let s = 0; s < sessions; s++) {
    for (let t = 0; t < 5; t++) {
      const bad = rand() < 0.3;
      const pool = bad ? UNHAPPY : HAPPY;
      const prompt = `${pool[Math.floor(rand() * pool.length)]} (${Math.floor(rand() * 1000)})`;
      const ex = makeExchange(`${name}-${seed}-${s}-${t}`, { corpus: name, session_id: `${name}-s${s}`, turn: t, prompt, reply_end: bad ? "I replaced the file with a new version." : "Done: the change is in src/app.ts." });
      exchanges.push(ex);
      for (let r = 0; r < 3; r++) {
        const vote = rand() < noise ? !bad : bad;
        labels.push({ schema: "label/1", exchange_id: ex.id, labeler: `${name}:r${r}`, question: "detect.unhappy", value: vote, origin: "test" });
      }
      labels.push({ schema: "label/1", exchange_id: ex.id, labeler: `${name}:r0`, question: "satisfaction", value: bad ? 2 : 4, origin: "test" });
    }
  }
  return { name, exchanges, labels, exchangesSha256: `sha-ex-${seed}`, labelsSha256: `sha-lab-${seed}` };
}
