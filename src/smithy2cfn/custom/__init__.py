"""Lambda-backed custom resources (``Custom::Name``) served from a model's resources (issue 19):
the JSON Schemas of the protocol's properties, request and response (:mod:`.schemas`), a
provider module to start from, and a template snippet for the docs."""
