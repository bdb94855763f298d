/**
 * The Postgres store's migrations, applied in order inside one transaction each and recorded
 * in `errata_migrations`; an applied one is never run again. Row-level security is forced
 * (the table owner is held to it too), and every tenant query runs as the role
 * `errata_tenant` (no BYPASSRLS) with `errata.tenant` set for that transaction only, so a
 * query that forgets its tenant sees no rows rather than every tenant's.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "errata, patches, tokens, tenant isolation",
    sql: `
CREATE TABLE tenant_tokens (
  token_id text PRIMARY KEY,
  tenant text NOT NULL,
  label text NOT NULL,
  hash text NOT NULL UNIQUE,
  created timestamptz NOT NULL,
  revoked timestamptz
);
CREATE TABLE errata (
  seq bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  ts timestamptz NOT NULL,
  line jsonb NOT NULL,
  idem_key text,
  received timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant, id),
  UNIQUE (tenant, idem_key)
);
CREATE TABLE erratum_patches (
  seq bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  ts text NOT NULL,
  patch jsonb NOT NULL,
  FOREIGN KEY (tenant, id) REFERENCES errata (tenant, id)
);
CREATE INDEX erratum_patches_by_id ON erratum_patches (tenant, id, seq);
ALTER TABLE errata ENABLE ROW LEVEL SECURITY;
ALTER TABLE errata FORCE ROW LEVEL SECURITY;
ALTER TABLE erratum_patches ENABLE ROW LEVEL SECURITY;
ALTER TABLE erratum_patches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_rows ON errata
  USING (tenant = current_setting('errata.tenant', true))
  WITH CHECK (tenant = current_setting('errata.tenant', true));
CREATE POLICY tenant_rows ON erratum_patches
  USING (tenant = current_setting('errata.tenant', true))
  WITH CHECK (tenant = current_setting('errata.tenant', true));
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'errata_tenant') THEN
    CREATE ROLE errata_tenant NOLOGIN NOBYPASSRLS;
  END IF;
END $$;
GRANT SELECT, INSERT ON errata, erratum_patches TO errata_tenant;
GRANT USAGE ON SEQUENCE errata_seq_seq, erratum_patches_seq_seq TO errata_tenant;
GRANT errata_tenant TO CURRENT_USER;
`,
  },
  {
    version: 2,
    name: "the developers' rule-ledger lines, for the team's most-broken rules",
    sql: `
CREATE TABLE rule_lines (
  seq bigserial PRIMARY KEY,
  tenant text NOT NULL,
  developer text NOT NULL,
  line jsonb NOT NULL,
  line_hash text NOT NULL,
  received timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant, developer, line_hash)
);
ALTER TABLE rule_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE rule_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_rows ON rule_lines
  USING (tenant = current_setting('errata.tenant', true))
  WITH CHECK (tenant = current_setting('errata.tenant', true));
GRANT SELECT, INSERT ON rule_lines TO errata_tenant;
GRANT USAGE ON SEQUENCE rule_lines_seq_seq TO errata_tenant;
`,
  },
  {
    version: 3,
    name: "the developers' pushed known values (salted hashes), scrubbed out of every request",
    sql: `
CREATE TABLE known_values (
  seq bigserial PRIMARY KEY,
  tenant text NOT NULL,
  developer text NOT NULL,
  store jsonb NOT NULL,
  pushed timestamptz NOT NULL
);
CREATE INDEX known_values_by_developer ON known_values (tenant, developer, seq);
ALTER TABLE known_values ENABLE ROW LEVEL SECURITY;
ALTER TABLE known_values FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_rows ON known_values
  USING (tenant = current_setting('errata.tenant', true))
  WITH CHECK (tenant = current_setting('errata.tenant', true));
GRANT SELECT, INSERT ON known_values TO errata_tenant;
GRANT USAGE ON SEQUENCE known_values_seq_seq TO errata_tenant;
`,
  },
];
