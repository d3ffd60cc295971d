-- 0013 checksums of applied migrations (docs/database.md, "Migrations").
--
-- Design notes
-- * schema_migrations.checksum: "sha256:<hex>" of the migration file as it was applied. On every
--   start the server compares it with the file it carries and refuses to start, naming the file,
--   when an applied migration was changed. Rows without one (applied before this migration, or
--   written by a release that does not know the column: seed and one-off rows, or a previous
--   release still serving during a rolling deploy) are filled on the next start, so the column is
--   nullable and nothing an older release writes is refused.

ALTER TABLE schema_migrations ADD COLUMN checksum TEXT;
