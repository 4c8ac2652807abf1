$version: "2"
namespace acme.other

/// Not connected to the service.
structure EncryptionSettings { mode: String }
