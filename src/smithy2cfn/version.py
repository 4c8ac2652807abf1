"""The package version (one place: ``smithy2cfn.__version__`` and the precomputed data's key
read it; keep it equal to ``version`` in pyproject.toml)."""

__version__ = "0.1.0"
