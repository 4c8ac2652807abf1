"""The semantic model: shapes, members and traits with absolute shape IDs."""

from smithy2cfn.model.shapes import Member, Model, Shape, ShapeId

__all__ = ["Member", "Model", "Shape", "ShapeId"]
