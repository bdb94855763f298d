import type { FastifyInstance } from "fastify";
import { buildServer, type ServerOptions } from "../../runtime/server/index.js";
import { openJsonlStore, type ErrataStore } from "../../runtime/stores/index.js";
import { tempDir } from "../helpers/io.js";

export const NOW = Date.parse("2026-11-30T12:00:00Z");

export interface Harness {
  app: FastifyInstance;
  store: ErrataStore;
  dir: string;
  token: string;
  /** A second tenant's token. */
  other: string;
  close: () => Promise<void>;
}

export async function harness(opts: Partial<ServerOptions> & { store?: ErrataStore } = {}): Promise<Harness> {
  const { dir, cleanup } = tempDir("errata-server-");
  const store = opts.store ?? openJsonlStore(dir);
  const token = (await store.addToken("acme", "ana", new Date(NOW).toISOString())).token;
  const other = (await store.addToken("globex", "bob", new Date(NOW).toISOString())).token;
  const app = await buildServer({ store, dir, now: () => NOW, ...opts });
  return {
    app, store, dir, token, other,
    close: async () => {
      await app.close();
      await store.close();
      cleanup();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const good = (over: Record<string, unknown> = {}) => ({ complaint: "the invoice total is wrong", reporter: { id: "ana@example.com" }, ...over });
