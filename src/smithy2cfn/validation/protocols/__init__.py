"""Validators of the protocol traits and protocol tests (the reference's
``smithy-protocol-traits`` and ``smithy-protocol-test-traits``): ``smithy.protocols``
(``rpcv2.py``) and the ``smithy.test`` HTTP request/response and event stream tests
(``protocol_tests.py``).
"""
