import ForensicsCore

/// A rule's options: a struct whose `init()` holds the defaults and whose `declarations` name
/// each option once — key, meaning, unit — so that parsing a configuration, checking its values,
/// the documentation table and the JSON of effective options all derive from one line per option
/// (after SwiftLint's rule configurations).
package protocol RuleOptions: Sendable, Equatable {
    /// The defaults.
    init()
    static var declarations: [RuleOption<Self>] { get }
}

/// One option, declared once. Numbers only: every threshold a rule has is a duration, a count,
/// a size, a share or a factor, and each kind says which values make sense.
package struct RuleOption<Options> {
    package enum Unit: String, Sendable {
        /// A duration in seconds, ≥ 0.
        case seconds
        /// A whole number of things, ≥ 0.
        case count
        /// A whole number of bytes, ≥ 0.
        case bytes
        /// A share between 0 and 1.
        case ratio
        /// A multiplier, > 0.
        case factor
    }

    package let key: String
    package let unit: Unit
    /// What the option means, in a phrase (the docs add the default).
    package let doc: String
    private let read: (Options) -> Double
    private let write: (inout Options, Double) -> Void

    private init(
        _ key: String, _ unit: Unit, _ doc: String, read: @escaping (Options) -> Double,
        write: @escaping (inout Options, Double) -> Void
    ) {
        self.key = key
        self.unit = unit
        self.doc = doc
        self.read = read
        self.write = write
    }

    package static func seconds(_ key: String, _ path: WritableKeyPath<Options, Double>, _ doc: String) -> Self {
        Self(key, .seconds, doc, read: { $0[keyPath: path] }, write: { $0[keyPath: path] = $1 })
    }

    package static func ratio(_ key: String, _ path: WritableKeyPath<Options, Double>, _ doc: String) -> Self {
        Self(key, .ratio, doc, read: { $0[keyPath: path] }, write: { $0[keyPath: path] = $1 })
    }

    package static func factor(_ key: String, _ path: WritableKeyPath<Options, Double>, _ doc: String) -> Self {
        Self(key, .factor, doc, read: { $0[keyPath: path] }, write: { $0[keyPath: path] = $1 })
    }

    package static func count(_ key: String, _ path: WritableKeyPath<Options, Int>, _ doc: String) -> Self {
        Self(key, .count, doc, read: { Double($0[keyPath: path]) }, write: { $0[keyPath: path] = Int($1) })
    }

    package static func bytes(_ key: String, _ path: WritableKeyPath<Options, Int>, _ doc: String) -> Self {
        Self(key, .bytes, doc, read: { Double($0[keyPath: path]) }, write: { $0[keyPath: path] = Int($1) })
    }

    /// The largest whole value accepted for counts and bytes (far beyond any real threshold, and
    /// exactly representable, so the conversion to `Int` cannot trap).
    static var maxWhole: Double { 1e15 }

    /// Why `value` is not acceptable for this option, or nil when it is.
    func problem(with value: Double) -> String? {
        guard value.isFinite else { return "must be a finite number" }
        switch unit {
        case .seconds: return value >= 0 ? nil : "must be 0 or more seconds"
        case .ratio: return (0...1).contains(value) ? nil : "must be between 0 and 1"
        case .factor: return value > 0 ? nil : "must be more than 0"
        case .count, .bytes:
            guard value >= 0, value <= Self.maxWhole else { return "must be between 0 and \(Int(Self.maxWhole))" }
            return value == value.rounded() ? nil : "must be a whole number"
        }
    }

    /// Sets the option, or says why `value` does not fit it (and leaves the options as they were).
    package func set(_ value: Double, in options: inout Options) -> String? {
        if let problem = problem(with: value) { return problem }
        write(&options, value)
        return nil
    }

    package func value(in options: Options) -> Double { read(options) }

    /// The value as written in docs and JSON: `0.5`, `3`.
    package func text(in options: Options) -> String {
        let v = read(options)
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }
}

/// Options for rules that have none.
package struct NoOptions: RuleOptions {
    package init() {}
    package static var declarations: [RuleOption<NoOptions>] { [] }
}
