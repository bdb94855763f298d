// Types of bin/cache-key.cjs (imported by runtime/hooks/tool-hook-bin.ts, bundled into the tool bin).
export declare function textHash(src: string): string;
export declare function cacheHeader(src: string): string;
export declare function buildIdLine(id: string): string;
