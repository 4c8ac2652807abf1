"""Validators of the AWS trait packages (the reference's ``smithy-aws-traits`` and
``smithy-aws-iam-traits``), one module per trait package: ``aws.api`` (ARNs, the service
trait, endpoint discovery, tagging: ``api.py``), ``aws.auth`` (``auth.py``), ``aws.protocols``
(the protocol traits and ``httpChecksum``: ``protocols.py``) and ``aws.iam`` (``iam.py``).
"""
