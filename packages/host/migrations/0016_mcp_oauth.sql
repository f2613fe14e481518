-- OAuth for MCP clients (src/mcpAuth): the clients (registered, or known by their client ID
-- metadata document), the grants a person gave one of them for one account, the authorization
-- codes (single use, 60 s) and the access and refresh tokens of each grant. Only SHA-256 hashes of
-- codes and tokens are stored, as for platform tokens.
CREATE TABLE mcp_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  redirect_uris jsonb NOT NULL,
  -- The client_id is an https URL whose JSON document was fetched (client ID metadata document).
  metadata_document boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mcp_grants (
  id text PRIMARY KEY,
  client_id text NOT NULL,
  client_name text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX mcp_grants_user ON mcp_grants (user_id);

CREATE TABLE mcp_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- What the code was exchanged for: a second use of the code revokes it.
  grant_id text REFERENCES mcp_grants (id) ON DELETE SET NULL
);
CREATE INDEX mcp_codes_expiry ON mcp_codes (expires_at);

CREATE TABLE mcp_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES mcp_grants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at timestamptz NOT NULL,
  -- A refresh token already exchanged: presenting it again revokes the grant.
  rotated_at timestamptz
);
CREATE INDEX mcp_tokens_grant ON mcp_tokens (grant_id);
