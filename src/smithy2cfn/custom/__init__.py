"""Custom resources from the model (issue 19): a resource served as a Lambda-backed
``Custom::`` resource, with its properties, request and response schemas and a provider
module to start from."""
