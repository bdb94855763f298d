import { afterAll, beforeAll } from "vitest";
import { hasChromium, launch } from "./chromium.js";
// The three suites in chromium, one browser for all of them (test/browser/chromium.ts: `launch`
// shares this process's context; a launch is about 3.3 CPU-s and each file of its own was also
// a process of its own): the static pages (notebooks, Pulse), the labelling page by keyboard,
// and by mouse with an active round and the adjudication view. Each suite still opens its own
// pages and its own `errata eval label serve`, and says in one line why it skips.
import "./static-pages.js";
import "./label-page.js";
import "./label-mouse.js";

let close: () => Promise<void> = async () => {};
beforeAll(async () => {
  if (hasChromium) ({ close } = await launch());
});
afterAll(async () => {
  await close();
});
