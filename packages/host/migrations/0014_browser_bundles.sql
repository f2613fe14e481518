-- A version's browser bundle (its widgets as one ES module, the shared runtime left as bare
-- imports; bundle/buildBrowserBundle.ts), served to widget frames at /web/bundles/<version>.js,
-- and its gzip size in bytes. NULL for a version built before this migration or without widgets.
ALTER TABLE versions ADD COLUMN browser_bundle text;
ALTER TABLE versions ADD COLUMN browser_bundle_gzip_bytes integer;
