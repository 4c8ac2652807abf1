"""The small languages a Smithy model embeds, parsed and evaluated here for the validators:

* :mod:`~smithy2cfn.languages.selector` — Smithy selectors (Smithy 2.0 "Selectors"), with
  the per-model :class:`~smithy2cfn.languages.selector.SelectorEngine`;
* :mod:`~smithy2cfn.languages.jmespath_lint` — JMESPath expressions type-checked over sample
  values (the reference's ``smithy-jmespath`` linter), for waiters and contracts;
* :mod:`~smithy2cfn.languages.patterns` — ``@pattern`` regular expressions (ECMA-262 as the
  reference reads them), compiled and matched with a time limit;
* :mod:`~smithy2cfn.languages.rules_engine` — endpoint rule sets and BDDs (the reference's
  ``smithy-rules-engine`` language), read into records and evaluated over endpoint test cases.

They import the model only; :mod:`smithy2cfn.validation` imports them (and emit the
pattern compiler).
"""
