// Generated code names ordered to-many collections; re-exporting `OrderedSet` means a target
// that imports ManagedObjects needs no other import. `DataModel` is not re-exported: generated
// code names its types through `ModelLiteral`, so an app's own `Model` or `Entity` stays its own.
@_exported import struct OrderedCollections.OrderedSet
