import { LogisticError } from "./logistic-error.js";

/**
 * Rows for the learners: sparse (`{idx, val}`, duplicates add up) or dense (an array of length
 * `dim`), turned into compressed sparse rows, and renumbered to the columns they use.
 *
 * Example: `toCsr([{idx: [3, 1], val: [1, 2]}, [0, 5, 0, 0]], 4)`
 * -> `{n: 2, dim: 4, ptr: [0, 2, 3], idx: [3, 1, 1], val: [1, 2, 5]}`.
 */
/** A sparse row: parallel arrays of feature indices and values (duplicates add up). */
export interface SparseRow {
  readonly idx: ArrayLike<number>;
  readonly val: ArrayLike<number>;
}

/** A row is sparse (`{idx, val}`) or dense (an array of length `dim`). */
export type Row = SparseRow | ArrayLike<number>;

/** Rows in compressed sparse row form. */
export interface Csr {
  n: number;
  dim: number;
  ptr: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

export function isSparse(row: Row): row is SparseRow {
  return typeof row === "object" && row !== null && "idx" in row && "val" in row;
}

export function toCsr(rows: readonly Row[], dimOpt: number | undefined): Csr {
  let dim = dimOpt;
  if (dim === undefined) {
    const first = rows[0];
    if (first === undefined || isSparse(first)) throw new LogisticError("BAD_INPUT", "dim is required for sparse rows (expected a positive integer; found undefined)");
    dim = first.length;
  }
  if (!Number.isInteger(dim) || dim < 0) throw new LogisticError("BAD_INPUT", `dim must be a non-negative integer (found ${dim})`);
  let nnz = 0;
  for (const row of rows) nnz += isSparse(row) ? row.idx.length : row.length;
  const ptr = new Int32Array(rows.length + 1);
  const idx = new Int32Array(nnz);
  const val = new Float64Array(nnz);
  let k = 0;
  rows.forEach((row, i) => {
    if (isSparse(row)) {
      if (row.idx.length !== row.val.length) throw new LogisticError("BAD_INPUT", `row ${i}: idx and val differ in length (${row.idx.length} vs ${row.val.length})`);
      for (let j = 0; j < row.idx.length; j++) {
        const c = row.idx[j]!;
        const v = row.val[j]!;
        if (!Number.isInteger(c) || c < 0 || c >= (dim as number)) throw new LogisticError("BAD_INPUT", `row ${i}: feature index must be in [0, ${dim}) (found ${c})`);
        if (!Number.isFinite(v)) throw new LogisticError("BAD_INPUT", `row ${i}: feature value must be finite (found ${v})`);
        idx[k] = c;
        val[k++] = v;
      }
    } else {
      if (row.length !== dim) throw new LogisticError("BAD_INPUT", `row ${i}: dense row must have ${dim} values (found ${row.length})`);
      for (let j = 0; j < row.length; j++) {
        const v = row[j]!;
        if (!Number.isFinite(v)) throw new LogisticError("BAD_INPUT", `row ${i}: feature value must be finite (found ${v})`);
        if (v !== 0) {
          idx[k] = j;
          val[k++] = v;
        }
      }
    }
    ptr[i + 1] = k;
  });
  return { n: rows.length, dim, ptr, idx: idx.subarray(0, k), val: val.subarray(0, k) };
}

/** Renumbers the used columns 0..k-1 (in ascending order of their original index). */
export function compactColumns(X: Csr): { X: Csr; used: Int32Array } {
  const mark = new Uint8Array(X.dim);
  for (let k = 0; k < X.idx.length; k++) mark[X.idx[k]!] = 1;
  let count = 0;
  for (let j = 0; j < X.dim; j++) count += mark[j]!;
  const used = new Int32Array(count);
  const newIndex = new Int32Array(X.dim);
  let c = 0;
  for (let j = 0; j < X.dim; j++) {
    if (mark[j]) {
      used[c] = j;
      newIndex[j] = c++;
    }
  }
  const idx = new Int32Array(X.idx.length);
  for (let k = 0; k < X.idx.length; k++) idx[k] = newIndex[X.idx[k]!]!;
  return { X: { n: X.n, dim: count, ptr: X.ptr, idx, val: X.val }, used };
}

export function scatter(compact: Float64Array, used: Int32Array, dim: number): Float64Array {
  const out = new Float64Array(dim);
  for (let c = 0; c < used.length; c++) out[used[c]!] = compact[c]!;
  return out;
}

