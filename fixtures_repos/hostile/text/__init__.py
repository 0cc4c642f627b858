"""Files whose bytes are unusual: BOM, CRLF, tabs, mixed encodings, NUL."""
