extension Model {
    /// The same model with every `SourceLocation` removed: what a model read from a file
    /// compares equal to when built in code, and what `managedgen dump` prints by default so
    /// its output does not change when lines move.
    public func withoutSourceLocations() -> Model {
        var model = self
        model.location = nil
        model.entities = entities.map { entity in
            var entity = entity
            entity.location = nil
            entity.attributes = entity.attributes.map { $0.withoutSourceLocation() }
            entity.relationships = entity.relationships.map { relationship in
                var relationship = relationship
                relationship.location = nil
                return relationship
            }
            entity.fetchedProperties = entity.fetchedProperties.map { property in
                var property = property
                property.location = nil
                property.fetchRequest.location = nil
                return property
            }
            entity.fetchIndexes = entity.fetchIndexes.map { index in
                var index = index
                index.location = nil
                return index
            }
            return entity
        }
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
