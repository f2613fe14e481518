-- The marketplace (routes/marketplace.ts): each version keeps its platform.json listing (name,
-- description, icon, the docs' Markdown text; rules/listing.ts of integration-schema), and each
-- activation the version live when the account activated or last consented, so the listing page
-- can say what a newer live version widens.
ALTER TABLE versions ADD COLUMN listing jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE activations ADD COLUMN consented_version_id text REFERENCES versions (id) ON DELETE SET NULL;
