-- What a webhook handler receives besides the body (DESIGN.md section 7): the request's method, the
-- header view partner code may read (lower-case names, credentials dropped, at most 64 headers and
-- 8 KiB, see the sdk's runtime/webhookRequest.ts) and the content type that chose form or JSON
-- parsing, stored with the delivery so every retry gets the same request. NULL on older rows.
ALTER TABLE jobs ADD COLUMN request_method text;
ALTER TABLE jobs ADD COLUMN request_headers jsonb;
ALTER TABLE jobs ADD COLUMN request_content_type text;
