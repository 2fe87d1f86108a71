import ManagedObjects

/// The outlines of a migration's steps as `migrate --dry-run` and `diff` print them: each step,
/// each entity and property with what becomes of it, then what blocks the step, with Core
/// Data's code.
package enum MigrationPlanText {
    package static func text(of outlines: [MigrationPlanOutline]) -> String {
        guard !outlines.isEmpty else { return "nothing to migrate: the store is already at that version" }
        var lines: [String] = []
        for (number, outline) in outlines.enumerated() {
            let how = outline.mappingModel.map { "by mapping model \($0)" } ?? "inferred (lightweight)"
            lines.append("step \(number + 1) of \(outlines.count): \(outline.sourceVersion) → \(outline.destinationVersion), \(how)")
            for entity in outline.entities {
                lines.append("  entity \(entity.name): \(describe(entity.change))")
                for property in entity.properties {
                    lines.append("    \(property.isRelationship ? "relationship" : "attribute") \(property.name): \(describe(property.change))")
                }
            }
            if outline.blockers.isEmpty {
                lines.append("  blocks: nothing")
            } else {
                for blocker in outline.blockers {
                    let subject = [blocker.entity, blocker.property].compactMap { $0 }.joined(separator: ".")
                    lines.append("  blocks (\(blocker.code)\(subject.isEmpty ? "" : ", \(subject)")): \(blocker.reason)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ change: MigrationPlanOutline.EntityChange) -> String {
        switch change {
        case .copied: "copied"
        case .renamed(let from): "renamed from \(from)"
        case .added: "added (no objects)"
        case .removed: "removed (objects of its own are left behind)"
        case .mapped(let mapping, let from, let policy):
            "mapped from \(from) by \(mapping)\(policy.map { " (policy \($0))" } ?? "")"
        }
    }

    static func describe(_ change: MigrationPlanOutline.PropertyChange) -> String {
        switch change {
        case .copied: "copied"
        case .renamed(let from): "renamed from \(from)"
        case .added(let value?): "added, defaulted to \(value)"
        case .added(nil): "added (empty)"
        case .defaulted(let value): "copied, defaulted to \(value) where empty (now required)"
        case .converted(let from, let to): "converted from \(from) to \(to)"
        case .dropped: "dropped (its values are left behind)"
        case .mapped(let expression?): "mapped from \(expression)"
        case .mapped(nil): "mapped (no value)"
        }
    }
}
