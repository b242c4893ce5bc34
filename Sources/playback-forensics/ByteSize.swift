import ArgumentParser

/// A size option with an optional unit: `1048576`, `512k`, `1MiB`, `1.5MB`, `2G` (binary units:
/// k/K/KB/KiB = 1024, M… = 1024², G… = 1024³; as people write limits, not as disks are sold).
struct ByteSize: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let digits = text.prefix { $0.isNumber || $0 == "." }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let value = Double(digits), value.isFinite, value >= 0 else { return nil }
        let scale: Double
        switch unit {
        case "", "b": scale = 1
        case "k", "kb", "kib": scale = 1024
        case "m", "mb", "mib": scale = 1024 * 1024
        case "g", "gb", "gib": scale = 1024 * 1024 * 1024
        default: return nil
        }
        let product = value * scale
        guard product < Double(Int.max / 2) else { return nil }
        bytes = Int(product.rounded())
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
