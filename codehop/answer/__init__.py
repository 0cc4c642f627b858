"""Answering: retrieval, graph context, generators, the orchestrator's loop, the context builder for agents."""
