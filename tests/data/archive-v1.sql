-- The schema of a version 1 archive, as lusoria 0df88da (before schema version 3) created it:
-- the CREATE statements of its sqlite_master. tests/test_migration.py builds a version 1 archive from them.
CREATE TABLE "records" (
   "id" INTEGER PRIMARY KEY,
   "hash" TEXT NOT NULL,
   "game" TEXT,
   "variant" TEXT,
   "event" TEXT,
   "site" TEXT,
   "date" TEXT,
   "round" TEXT,
   "white" TEXT,
   "black" TEXT,
   "result" TEXT,
   "date_from" TEXT,
   "date_to" TEXT,
   "plies" INTEGER,
   "valid" INTEGER NOT NULL,
   "errors" INTEGER,
   "warnings" INTEGER,
   "first_rule" TEXT,
   "first_ply" INTEGER,
   "path" TEXT,
   "line" INTEGER,
   "sources" TEXT,
   "comments" TEXT,
   "text" TEXT NOT NULL
);
CREATE TABLE "tags" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "name" TEXT,
   "value" TEXT,
   PRIMARY KEY ("record_id", "name")
);
CREATE TABLE "plies" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "ply" INTEGER,
   "side" TEXT,
   "text" TEXT,
   "position" INTEGER,
   PRIMARY KEY ("record_id", "ply")
);
CREATE TABLE "diagnostics" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "number" INTEGER,
   "severity" TEXT,
   "rule" TEXT,
   "message" TEXT,
   "ply" INTEGER,
   "text" TEXT,
   "line" INTEGER,
   "column" INTEGER,
   PRIMARY KEY ("record_id", "number")
);
CREATE UNIQUE INDEX "idx_records_hash"
    ON "records" ("hash");
CREATE INDEX "idx_records_game_variant"
    ON "records" ("game", "variant");
CREATE INDEX "idx_records_result"
    ON "records" ("result");
CREATE INDEX "idx_records_valid"
    ON "records" ("valid");
CREATE INDEX "idx_records_date_from"
    ON "records" ("date_from");
CREATE INDEX "idx_records_date_to"
    ON "records" ("date_to");
CREATE INDEX "idx_records_first_rule"
    ON "records" ("first_rule");
CREATE INDEX idx_records_white_nocase ON records (white COLLATE NOCASE);
CREATE INDEX idx_records_black_nocase ON records (black COLLATE NOCASE);
CREATE INDEX idx_records_event_nocase ON records (event COLLATE NOCASE);
CREATE INDEX idx_records_site_nocase ON records (site COLLATE NOCASE);
CREATE INDEX "idx_tags_name_value"
    ON "tags" ("name", "value");
CREATE INDEX "idx_plies_position"
    ON "plies" ("position");
CREATE INDEX "idx_diagnostics_rule_record_id"
    ON "diagnostics" ("rule", "record_id");
CREATE VIRTUAL TABLE "records_fts" USING FTS5 (
    "white", "black", "event", "site", "sources", "comments",
    content="records"
);
CREATE TRIGGER "records_ai" AFTER INSERT ON "records" BEGIN
  INSERT INTO "records_fts" (rowid, "white", "black", "event", "site", "sources", "comments") VALUES (new.rowid, new."white", new."black", new."event", new."site", new."sources", new."comments");
END;
CREATE TRIGGER "records_ad" AFTER DELETE ON "records" BEGIN
  INSERT INTO "records_fts" ("records_fts", rowid, "white", "black", "event", "site", "sources", "comments") VALUES('delete', old.rowid, old."white", old."black", old."event", old."site", old."sources", old."comments");
END;
CREATE TRIGGER "records_au" AFTER UPDATE ON "records" BEGIN
  INSERT INTO "records_fts" ("records_fts", rowid, "white", "black", "event", "site", "sources", "comments") VALUES('delete', old.rowid, old."white", old."black", old."event", old."site", old."sources", old."comments");
  INSERT INTO "records_fts" (rowid, "white", "black", "event", "site", "sources", "comments") VALUES (new.rowid, new."white", new."black", new."event", new."site", new."sources", new."comments");
END;
PRAGMA user_version = 1;
