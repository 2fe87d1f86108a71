extension Model {
    /// The same model with every `SourceLocation` removed: what a model read from a file
    /// compares equal to when built in code, and what `managedgen dump` prints by default so
    /// its output does not change when lines move.
    public func withoutSourceLocations() -> Model {
        var model = self
        model.location = nil
        model.entities = entities.map { $0.withoutSourceLocations() }
        model.composites = composites.map { composite in
            var composite = composite
            composite.location = nil
            composite.attributes = composite.attributes.map { $0.withoutSourceLocation() }
            return composite
        }
        model.fetchRequests = fetchRequests.map { request in
            var request = request
            request.location = nil
            return request
        }
        model.configurations = configurations.map { configuration in
            var configuration = configuration
            configuration.location = nil
            return configuration
        }
        return model
    }
}

extension Entity {
    /// The same entity with every `SourceLocation` removed: equal to the same entity read from
    /// another file or another place in the file.
    public func withoutSourceLocations() -> Entity {
        var entity = self
        entity.location = nil
        entity.attributes = attributes.map { $0.withoutSourceLocation() }
        entity.relationships = relationships.map { relationship in
            var relationship = relationship
            relationship.location = nil
            return relationship
        }
        entity.fetchedProperties = fetchedProperties.map { property in
            var property = property
            property.location = nil
            property.fetchRequest.location = nil
            return property
        }
        entity.fetchIndexes = fetchIndexes.map { index in
            var index = index
            index.location = nil
            return index
        }
        return entity
    }
}

extension Attribute {
    fileprivate func withoutSourceLocation() -> Attribute {
        var attribute = self
        attribute.location = nil
        return attribute
    }
}

extension ModelBundle {
    /// The same bundle with every `SourceLocation` removed from every version's model.
    public func withoutSourceLocations() -> ModelBundle {
        var bundle = self
        bundle.versions = versions.map { version in
            var version = version
            version.model = version.model.withoutSourceLocations()
            return version
        }
        return bundle
    }
}
