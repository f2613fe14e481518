-- The dashboard (routes/dashboard.ts): each user's placements of an account's widgets, one row per
-- (user, account, integration, widget) with a stable widget_config_id made on the first read, and
-- a version per (user, account) that layout saves compare, so two tabs never lose each other's moves.
CREATE TABLE dashboard_placements (
  widget_config_id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  integration_slug text NOT NULL REFERENCES integrations (slug) ON DELETE CASCADE,
  widget_id text NOT NULL,
  -- { "lg": {x,y,w,h}, "md": {...}, "sm": {...} }
  layout jsonb NOT NULL,
  collapsed boolean NOT NULL DEFAULT false,
  pinned boolean NOT NULL DEFAULT false,
  removed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, account_id, integration_slug, widget_id)
);

CREATE TABLE dashboard_versions (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, account_id)
);
