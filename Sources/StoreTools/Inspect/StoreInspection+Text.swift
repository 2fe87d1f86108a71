import Foundation

extension StoreInspection {
    /// The report as `managedgen inspect` prints it for a person.
    package var text: String {
        var lines = [
            "store: \(file)",
            "type: \(storeType ?? "?"), UUID \(uuid ?? "?"), Core Data framework version \(frameworkVersion.map(String.init) ?? "?")",
            "model version identifiers: \(modelVersionIdentifiers.isEmpty ? "none" : modelVersionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))",
            "entities:",
        ]
        let rows = [["entity", "Z_ENT", "table", "objects", "with sub-entities", "Z_MAX", ""]] + entities.map { entity in
            [entity.name, String(entity.number), entity.table, String(entity.objects), String(entity.objectsWithSubentities),
             String(entity.highestKey), entity.superentity.map { "sub-entity of \($0)" } ?? ""]
        }
        let widths = (0..<7).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            lines.append(("  " + cells.joined(separator: "  ")).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        lines.append("join tables: " + (joinTables.isEmpty ? "none" : joinTables.map { "\($0.name) (\($0.rows) rows)" }.joined(separator: ", ")))
        lines.append("external data: " + (externalData.map { "\($0.files) files, \($0.bytes) bytes in \($0.folder)" } ?? "none"))
        lines.append("history: " + (history.map { "\($0.transactions) transactions, \($0.changes) changes" } ?? "none"))
        lines.append("version hashes:")
        for (entity, hash) in versionHashes.sorted(by: { $0.key < $1.key }) { lines.append("  \(entity) \(hash)") }
        lines.append("integrity check: \(integrityCheck.joined(separator: "; "))")
        if let model {
            lines.append("model: \(model.bundle)")
            lines.append("  written by: " + (model.writtenBy.map { "\($0) (by \(model.identifiedBy ?? "?"))" } ?? "no version of the bundle"))
            lines.append("  opening with \(model.target): \(model.opening)")
            for step in model.steps { lines.append("    step \(step)") }
            for reason in model.reasons { lines.append("    \(reason)") }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON with sorted keys, for scripts.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
