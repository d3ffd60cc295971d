-- 0014 uploaded images in the database, SQLite half (the PostgreSQL half, 0014_images.postgres.sql,
-- differs only in the bytes column's type: BYTEA there, BLOB here).
--
-- Design notes (docs/backoffice.md, "Images")
-- * Every server on the database serves every upload, and a database backup holds them.
-- * A row is immutable: name is the URL's last segment (/uploads/<name>), content-addressed
--   (<sha256 of the stored bytes>.<ext>, or the name a file had in the old uploads folder, which
--   was the hash of its bytes then), so the bytes under a name never change and are served with
--   immutable caching. sha256 is the hash of bytes, the ETag.
-- * original_name is NULL for an upload itself and names the upload for each narrower copy
--   (<stem>-w320.<ext>, ...) made for srcset. srcset is set on uploads: every stored width of it,
--   as the HTML attribute, so a product's JSON needs one look-up by primary key.
-- * bytes is the re-encoded picture, metadata removed (never the file as uploaded).

CREATE TABLE images (
    name           TEXT NOT NULL PRIMARY KEY,
    original_name  TEXT CONSTRAINT images_original_name_fkey REFERENCES images (name) ON DELETE CASCADE,
    content_type   TEXT NOT NULL
                   CONSTRAINT images_content_type_check CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
    byte_size      INTEGER NOT NULL CONSTRAINT images_byte_size_check CHECK (byte_size > 0),
    sha256         TEXT NOT NULL CONSTRAINT images_sha256_check CHECK (length(sha256) = 64),
    width          INTEGER NOT NULL CONSTRAINT images_width_check CHECK (width > 0),
    height         INTEGER NOT NULL CONSTRAINT images_height_check CHECK (height > 0),
    srcset         TEXT,
    bytes          BLOB NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX images_original_name_idx ON images (original_name);

CREATE INDEX images_uploads_created_at_idx ON images (created_at, name) WHERE original_name IS NULL;
