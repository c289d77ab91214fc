"""The tags that name the format and the file a record was read from: a leaf module, which the
archive's queries import without loading a reader."""

SOURCE_FORMAT = "SourceFormat"  # formats/lgn.py writes it; the archive keeps it in other_tags
SOURCE_FILE = "SourceFile"  # formats/lgn.py writes it; the archive keeps it as the record's path
