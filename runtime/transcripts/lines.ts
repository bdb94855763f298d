// The byte-offset line streamer lives with the other file helpers (runtime/files); the
// transcript reader and the JSONL module share it.
export { readLines, type RawLine, type ReadLinesOptions } from "../files/lines.js";
