"""Re-exports the registry and the feed."""

from reg.feed import Feed, View
from reg.registry import Registry, apps
