"""Validators of the Smithy core model (the reference's ``smithy-model`` module): shape
references and types, traits and their values, constraints, resources and lifecycle
operations, services, HTTP bindings, operations, streams, pagination, metadata, and the
validators a model's ``validators`` metadata turns on (``configured.py``).

Each module holds the validators of one subject, each marked with
:func:`smithy2cfn.checks.validator`; they import the languages (:mod:`smithy2cfn.languages`)
and the validation support modules, never each other.
"""
