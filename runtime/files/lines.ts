import { createReadStream } from "node:fs";

/** One physical line of a JSONL file, with where it sits in the file. */
export interface RawLine {
  /** The line's text without its newline (and without a trailing "\r"). */
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just past the line and its newline: where a cursor resumes. */
  end: number;
  /** 1-based physical line number, counted from `firstLineNo`. */
  lineNo: number;
  /** False for a last line with no newline yet (possibly a torn write still in progress). */
  terminated: boolean;
}

export interface ReadLinesOptions {
  /** Byte offset to start at (a cursor); must be the start of a line. Default 0. */
  start?: number;
  /** Line number of the first line read (for resumed reads). Default 1. */
  firstLineNo?: number;
  /** Chunk size of the underlying stream in bytes. Default 256 KiB. */
  highWaterMark?: number;
}

const NEWLINE = 0x0a;

/**
 * Streams the lines of a file without ever holding the whole file: only the current chunk
 * and at most one partial line are in memory. Unlike `readline`, every line carries its byte
 * offsets, which is what a resumable cursor needs, and a last line without a newline is
 * reported as `terminated: false` so the caller can leave a torn tail for the next run.
 *
 * Example: a file "a\nb" yields `{text:"a", offset:0, end:2, lineNo:1, terminated:true}` and
 * `{text:"b", offset:2, end:3, lineNo:2, terminated:false}`.
 */
export async function* readLines(path: string, opts: ReadLinesOptions = {}): AsyncGenerator<RawLine> {
  const start = opts.start ?? 0;
  let lineNo = opts.firstLineNo ?? 1;
  const stream = createReadStream(path, { start, highWaterMark: opts.highWaterMark ?? 256 * 1024 });
  let pending: Buffer | null = null;
  let pendingOffset = start;
  let chunkOffset = start;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    let nl = chunk.indexOf(NEWLINE, 0);
    while (nl !== -1) {
      let lineBuf: Buffer;
      let lineOffset: number;
      if (pending !== null) {
        lineBuf = Buffer.concat([pending, chunk.subarray(from, nl)]);
        lineOffset = pendingOffset;
        pending = null;
      } else {
        lineBuf = chunk.subarray(from, nl);
        lineOffset = chunkOffset + from;
      }
      const end = chunkOffset + nl + 1;
      yield { text: decode(lineBuf), offset: lineOffset, end, lineNo: lineNo++, terminated: true };
      from = nl + 1;
      nl = chunk.indexOf(NEWLINE, from);
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      if (pending === null) {
        // Copy: the stream may reuse its buffer.
        pending = Buffer.from(rest);
        pendingOffset = chunkOffset + from;
      } else {
        pending = Buffer.concat([pending, rest]);
      }
    }
    chunkOffset += chunk.length;
  }
  if (pending !== null && pending.length > 0) {
    yield { text: decode(pending), offset: pendingOffset, end: chunkOffset, lineNo, terminated: false };
  }
}

function decode(buf: Buffer): string {
  const n = buf.length;
  return n > 0 && buf[n - 1] === 0x0d ? buf.toString("utf8", 0, n - 1) : buf.toString("utf8");
}
