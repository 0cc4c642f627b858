"""A diamond of classes across four modules."""
