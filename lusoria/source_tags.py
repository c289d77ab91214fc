"""The tag that names the format a record was read from: a leaf module, which the archive's
queries import without loading a reader."""

SOURCE_FORMAT = "SourceFormat"  # formats/lgn.py writes it; the archive keeps it in other_tags
