"""What the validators share: the validation stage's support room.

A check module (``validation/core/...``, ``validation/aws/...``, ``waiters.py``...) imports
only this package, the languages (:mod:`smithy2cfn.languages`: selectors, JMESPath,
``@pattern``) and the layers below validation (``model``, ``diagnostics``, ``prelude``...),
never another check module (``tests/test_architecture.py`` keeps it so). Each helper here is
written once:

* :mod:`.events`: making a diagnostic about a shape or member, located at the node or at
  the trait at fault, and the reference's ways of writing a message (ticked lists, Java's
  ``List``/``Shape`` texts, idiomatic trait names); the codes several check modules report;
* :mod:`.shapes`: the model's shapes by type and by trait, the user's shapes and nodes
  (lists made once per model), event streams and small readers of shapes and trait values
  (an operation's input and output: :class:`~smithy2cfn.model.knowledge_ops.OperationIndex`);
* :mod:`.node_values`: checking a JSON value against a shape (the reference's
  ``NodeValidationVisitor``), for trait values, defaults, metadata, examples and tests;
* :mod:`.configuration`: the configuration of the validators a model's ``validators``
  metadata names (errors and readers of its values).

The modules are imported by name (``from smithy2cfn.validation.support.events import
event``); this package imports none of them, so a check pays only for what it uses.
"""
