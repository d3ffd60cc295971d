-- 0014 uploaded images in the database, PostgreSQL half (the SQLite half, 0014_images.sqlite.sql,
-- has the design notes; it differs only in the bytes column's type: BLOB there, BYTEA here).

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
    bytes          BYTEA NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX images_original_name_idx ON images (original_name);

CREATE INDEX images_uploads_created_at_idx ON images (created_at, name) WHERE original_name IS NULL;
