import ArgumentParser

/// How `managedgen export` writes objects.
package enum ExportFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// One JSON array of objects.
    case json
    /// One JSON object a line (JSON Lines).
    case jsonl
    /// A header line (`entity`, `objectID`, then every property of the entities exported), then
    /// one line an object; relationships as object ID URIs (a to-many's separated by spaces).
    case csv
}
