/**
 * The capture classifier: a typed prompt (and the reply before it) to a closed verdict, from
 * the language data in lang/. Its only I/O is reading its own data files. The hook path
 * imports its files directly, so the hook's bundle holds only what a prompt needs.
 */
export { classify, unhappyWithReply } from "./classify.js";
export { type CaptureVerdict } from "./verdict.js";
