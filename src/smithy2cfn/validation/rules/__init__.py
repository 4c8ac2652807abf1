"""Validators of the rules engine and AWS endpoints (the reference's ``smithy-rules-engine``
and ``smithy-aws-endpoints``): the ``smithy.rules`` endpoint rule sets, BDDs, parameters
and tests (``ruleset.py``), and ``aws.endpoints`` (``aws_endpoints.py``).
"""
