"""Answering: retrieval, generators, the orchestrator's loop, the context builder for agents."""
