/** The global Buffer for the mod's bundle (esbuild `inject`): the classifier asks only for `byteLength`. */
import { utf8Bytes } from "./fs.js";
export const Buffer = { byteLength: (s: string): number => utf8Bytes(s).length };
