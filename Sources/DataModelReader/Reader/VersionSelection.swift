#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which versions of a bundle to read.
public enum VersionSelection: Sendable, Hashable {
    /// Every version (what `validate` and migration need).
    case all
    /// The current version alone (what generating code needs): the other versions are not
    /// opened, so a broken one does not stop generation, and a bundle of a hundred versions
    /// reads as fast as one. The bundle then holds the current version only.
    case currentOnly
}
