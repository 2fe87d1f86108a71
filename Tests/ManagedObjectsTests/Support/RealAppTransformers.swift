import ManagedObjects

/// The value transformers the apps of `shared/stores` register before they open their stores.
/// Moody's `ColorsTransformer` (objcio's, for UIColor arrays) is not ported: a pass-through
/// under its name, so its cells read and migrate as the bytes it wrote (without one, reading
/// them is an error naming attribute and object: `ValueTransformerTests.unknownTransformer`).
/// Every suite that opens those stores touches `registered` first: suites run in parallel.
enum RealAppTransformers {
    static let registered: Void = {
        ValueTransformer.setValueTransformer(ValueTransformer(), forName: "ColorsTransformer")
    }()
}
