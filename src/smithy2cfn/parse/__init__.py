"""The Smithy IDL front end (Smithy 2.0 "Smithy IDL"; IDL 1.0 files are accepted too).

* :func:`smithy2cfn.parse.idl.parse_idl` — text → :class:`~smithy2cfn.parse.idl.IdlFile`
  (syntax tree with spans and diagnostics; never raises);
* :func:`smithy2cfn.parse.lower.lower_idl` — ``IdlFile`` + known shape IDs →
  :class:`smithy2cfn.model.document.SourceDocument` (absolute shape IDs, IDL sugar removed);
* :mod:`smithy2cfn.parse.syntax` — the tokenizer and the LALR driver over
  ``grammar/smithy.lark``; :mod:`smithy2cfn.parse.strings` — string and text block decoding.
"""
