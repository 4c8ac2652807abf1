"""Load stage: source files → one semantic :class:`smithy2cfn.model.Model`."""

from smithy2cfn.load.loader import assemble, discover, load_model, load_texts, read_model_files

__all__ = ["assemble", "discover", "load_model", "load_texts", "read_model_files"]
