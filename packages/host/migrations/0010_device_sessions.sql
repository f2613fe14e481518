-- Device sign-in, part 2: the approval page shows where and when a code was asked for; a token a
-- CLI session mints ends with that session (parent_id, checked at every use); last use of every
-- session and token, in a table of its own so that recording it (at most once a minute per
-- credential) does not touch `sessions` and so does not bump `cache_epoch`.
ALTER TABLE device_codes ADD COLUMN client_address text;

ALTER TABLE sessions ADD COLUMN parent_id text REFERENCES sessions (id) ON DELETE CASCADE;
CREATE INDEX sessions_parent_id ON sessions (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE credential_uses (
  credential_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  last_used_at timestamptz NOT NULL,
  last_used_address text
);
