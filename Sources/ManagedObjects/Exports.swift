// Generated code names the model's value types and ordered to-many collections; re-exporting
// them means a target that imports ManagedObjects needs no other import.
@_exported import DataModel
@_exported import struct OrderedCollections.OrderedSet
