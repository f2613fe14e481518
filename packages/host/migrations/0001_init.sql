-- Platform host schema. Plain SQL that PGlite and PostgreSQL both run.
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text,
  is_platform_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);

-- Browser sessions and API tokens; only a SHA-256 of the secret is stored.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('session', 'token')),
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);

CREATE TABLE sources (
  id text PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  stage text NOT NULL CHECK (stage IN ('development', 'production')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE seats (
  source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'publisher', 'viewer')),
  PRIMARY KEY (source_id, user_id)
);

-- The accounts a source serves: a version live on a source is live for these accounts.
CREATE TABLE source_accounts (
  source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  PRIMARY KEY (source_id, account_id)
);

CREATE TABLE integrations (
  slug text PRIMARY KEY,
  source_id text NOT NULL REFERENCES sources (id),
  name text NOT NULL,
  live_version_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE versions (
  id text PRIMARY KEY,
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  number integer NOT NULL,
  status text NOT NULL CHECK (status IN ('submitted', 'checking', 'rejected', 'dev', 'gated', 'live')),
  manifest jsonb NOT NULL,
  bundle text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (integration_slug, number)
);

CREATE TABLE activations (
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  data jsonb,
  activated_by text REFERENCES users (id) ON DELETE SET NULL,
  activated_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_slug, account_id)
);

-- One row per stored key; user_id is '' for account scope so the key stays a plain primary key.
CREATE TABLE storage (
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope IN ('account', 'user')),
  user_id text NOT NULL DEFAULT '',
  key text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_slug, account_id, scope, user_id, key)
);

-- Encrypted (AES-256-GCM) secrets. owner_id: the account (account tier), the source (source
-- tier), or '' (global tier, one integration everywhere).
CREATE TABLE secrets (
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  tier text NOT NULL CHECK (tier IN ('account', 'source', 'global')),
  owner_id text NOT NULL DEFAULT '',
  name text NOT NULL,
  ciphertext text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_slug, tier, owner_id, name)
);

CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  return_path text NOT NULL,
  code_verifier text,
  redirect_uri text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oauth_connections (
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  scope text,
  connected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_slug, account_id)
);

-- Fixed-window counters shared by every host instance.
CREATE TABLE rate_limits (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

-- Durable jobs (webhook deliveries, schedule runs), claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  integration_slug text NOT NULL,
  account_id text,
  payload jsonb NOT NULL,
  unique_key text UNIQUE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_ready ON jobs (status, run_at);
