"""The kernel: records, errors and protocols every layer shares; imports nothing of codehop above it."""
