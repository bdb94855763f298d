import type { Block } from "../runtime/pages/index.js";
import type { InputSpec, ReadInput } from "./inputs.js";

/**
 * One notebook: a named analysis of the project's own outputs, rendered as one static page.
 * `blocks` reads its inputs through `read` (bundled files unless the caller names others) and
 * returns the page's blocks; it must be deterministic (seeded, no clock).
 */
export interface Notebook {
  name: string;
  title: string;
  inputs: readonly InputSpec[];
  blocks: (read: (key: string) => ReadInput) => Promise<Block[]>;
}
