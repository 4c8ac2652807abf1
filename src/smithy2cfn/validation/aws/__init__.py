"""Validators of the AWS trait packages (the reference's ``smithy-aws-traits`` and
``smithy-aws-iam-traits``): ``aws.api`` (ARNs, service IDs, tagging), ``aws.auth``,
``aws.protocols`` (``traits.py``) and ``aws.iam`` (``iam.py``).
"""
