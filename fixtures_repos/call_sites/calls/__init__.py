"""Every kind of call site, in `calls.writer.Writer.write`."""
