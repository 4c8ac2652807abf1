"""A CloudFormation resource-type project (``cfn init``'s layout) and the files smithy2cfn
writes into it: the schema, ``docs/``, ``inputs/`` and ``resource-role.yaml``
(:mod:`.role`); the projects under a folder found by the ``typeName`` of their
``.rpdk-config`` (:mod:`.cfn_project`)."""
