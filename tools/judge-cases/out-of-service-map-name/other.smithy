$version: "2"
namespace acme.other

/// Not connected to the service; sorts before acme.vault#LabelMap.
map LabelMap { key: String, value: Integer }
