-- 0011 substring search, SQLite half (the PostgreSQL half is 0011_search.postgres.sql; the runner
-- applies each only on its engine, docs/database.md "Engine-specific migrations").
--
-- Design notes
-- * The staff search boxes match a case-insensitive substring: LOWER(col) LIKE '%term%'. No B-tree
--   serves that, so every search was a scan (1.2 s over a million certificates). These FTS5 tables
--   with the trigram tokenizer index every three-character window of the searched columns.
-- * They hold LOWER() of each column (SQLite's lower(): ASCII only, the same lowering the LIKE and
--   the C++ term use) with case_sensitive 1, so a phrase query of a term of three or more
--   characters matches exactly the rows the LIKE matches: no recheck, and the total is counted
--   from the index alone. Terms of one or two characters, which trigrams cannot serve, keep the
--   LIKE scan (the repositories choose).
-- * Contentless (content=''): the text is already in the base table. A row of the index has the
--   base row's rowid; triggers keep it in step on insert, on an update of a searched column
--   (delete the old text, add the new) and on delete, including deletes cascaded by foreign keys.
--   A contentless 'delete' must be given the text that was indexed, hence LOWER() of old.* there
--   too. VACUUM keeps rowids of these tables (checked with SQLite 3.40); to rebuild an index:
--   INSERT INTO x_search (x_search) VALUES ('delete-all'), then the INSERT ... SELECT below.
-- * The worker index is also how the certificates search finds a worker's name or email.

CREATE VIRTUAL TABLE worker_profiles_search USING fts5(
    full_name, email, ewrb_licence_number,
    content = '', columnsize = 0, tokenize = 'trigram case_sensitive 1'
);

INSERT INTO worker_profiles_search (rowid, full_name, email, ewrb_licence_number)
SELECT rowid, lower(full_name), lower(email), lower(ewrb_licence_number) FROM worker_profiles;

CREATE TRIGGER worker_profiles_search_insert AFTER INSERT ON worker_profiles BEGIN
INSERT INTO worker_profiles_search (rowid, full_name, email, ewrb_licence_number)
VALUES (new.rowid, lower(new.full_name), lower(new.email), lower(new.ewrb_licence_number));
END;

CREATE TRIGGER worker_profiles_search_delete AFTER DELETE ON worker_profiles BEGIN
INSERT INTO worker_profiles_search (worker_profiles_search, rowid, full_name, email, ewrb_licence_number)
VALUES ('delete', old.rowid, lower(old.full_name), lower(old.email), lower(old.ewrb_licence_number));
END;

CREATE TRIGGER worker_profiles_search_update AFTER UPDATE OF full_name, email, ewrb_licence_number ON worker_profiles BEGIN
INSERT INTO worker_profiles_search (worker_profiles_search, rowid, full_name, email, ewrb_licence_number)
VALUES ('delete', old.rowid, lower(old.full_name), lower(old.email), lower(old.ewrb_licence_number));
INSERT INTO worker_profiles_search (rowid, full_name, email, ewrb_licence_number)
VALUES (new.rowid, lower(new.full_name), lower(new.email), lower(new.ewrb_licence_number));
END;

CREATE VIRTUAL TABLE certificates_search USING fts5(
    certificate_number, site_location,
    content = '', columnsize = 0, tokenize = 'trigram case_sensitive 1'
);

INSERT INTO certificates_search (rowid, certificate_number, site_location)
SELECT rowid, lower(certificate_number), lower(site_location) FROM certificates;

CREATE TRIGGER certificates_search_insert AFTER INSERT ON certificates BEGIN
INSERT INTO certificates_search (rowid, certificate_number, site_location)
VALUES (new.rowid, lower(new.certificate_number), lower(new.site_location));
END;

CREATE TRIGGER certificates_search_delete AFTER DELETE ON certificates BEGIN
INSERT INTO certificates_search (certificates_search, rowid, certificate_number, site_location)
VALUES ('delete', old.rowid, lower(old.certificate_number), lower(old.site_location));
END;

CREATE TRIGGER certificates_search_update AFTER UPDATE OF certificate_number, site_location ON certificates BEGIN
INSERT INTO certificates_search (certificates_search, rowid, certificate_number, site_location)
VALUES ('delete', old.rowid, lower(old.certificate_number), lower(old.site_location));
INSERT INTO certificates_search (rowid, certificate_number, site_location)
VALUES (new.rowid, lower(new.certificate_number), lower(new.site_location));
END;

-- The staff orders list: part of a customer's email.
CREATE VIRTUAL TABLE orders_search USING fts5(
    customer_email,
    content = '', columnsize = 0, tokenize = 'trigram case_sensitive 1'
);

INSERT INTO orders_search (rowid, customer_email) SELECT rowid, lower(customer_email) FROM orders;

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders BEGIN
INSERT INTO orders_search (rowid, customer_email) VALUES (new.rowid, lower(new.customer_email));
END;

CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
INSERT INTO orders_search (orders_search, rowid, customer_email) VALUES ('delete', old.rowid, lower(old.customer_email));
END;

CREATE TRIGGER orders_search_update AFTER UPDATE OF customer_email ON orders BEGIN
INSERT INTO orders_search (orders_search, rowid, customer_email) VALUES ('delete', old.rowid, lower(old.customer_email));
INSERT INTO orders_search (rowid, customer_email) VALUES (new.rowid, lower(new.customer_email));
END;
