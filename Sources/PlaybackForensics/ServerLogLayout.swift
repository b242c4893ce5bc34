import ForensicsParsers

/// A server log's layout as the user gave it (`--cdn-log-format nginx='$remote_addr …'`): nginx
/// and Apache logs written with a `log_format` of the operator's own, Fastly's user-defined
/// formats, the fields a CloudFront real-time log configuration selected. Nothing in such a
/// line names its fields, so these logs are read only with their layout, and a file is taken for
/// one only when its first line reads as that layout's row.
public struct ServerLogLayout: Sendable {
    public let kind: String
    public let layout: String
    package let declaration: ServerLogDeclaration

    /// `KIND=LAYOUT` (`nginx=$remote_addr - [$time_local] "$request" $status …`).
    public init(argument: String) throws(ConfigurationError) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw ConfigurationError.invalid(
                "--cdn-log-format wants KIND=LAYOUT, KIND one of \(Self.kinds.map(\.kind).joined(separator: ", "))")
        }
        try self.init(kind: String(argument[..<equals]), layout: String(argument[argument.index(after: equals)...]))
    }

    public init(kind: String, layout: String) throws(ConfigurationError) {
        guard let type = FormatRegistry.configurable.first(where: { $0.kind == kind }) else {
            throw ConfigurationError.invalid(
                "unknown server log kind '\(kind)'; known: \(Self.kinds.map(\.kind).joined(separator: ", "))")
        }
        self.kind = kind
        self.layout = layout
        self.declaration = try type.declaration(layout: layout)
    }

    /// The kinds a layout can be given for, with the format each is read as and what the
    /// layout is.
    public static var kinds: [(kind: String, format: InputFormat, displayName: String, help: String)] {
        FormatRegistry.configurable.map { ($0.kind, $0.format, $0.displayName, $0.layoutHelp) }
    }
}
