import ForensicsCore

/// The formats the tool reads, in sniffing order: the one list everything about formats derives
/// from (ingest, `--log-format`, `formats`, the fuzz targets, the sample test).
///
/// The order matters where evidence overlaps: a HAR capture is JSON that may mention `"events"`,
/// so HAR is asked before metric events; a playlist is asked before the W3C logs (both start with
/// `#`); the KTVHTTPCache log, recognised by a word anywhere in the first 64 KiB, comes last.
package struct FormatRegistry: Sendable {
    package var readers: [any FormatReader.Type]

    package init(readers: [any FormatReader.Type]) { self.readers = readers }

    package static let standard = FormatRegistry(readers: [
        HARFormat.self,
        MetricEventsFormat.self,
        PlaylistFormat.self,
        AccessLogFormat.self,
        ErrorLogFormat.self,
        CacheLogFormat.self,
    ])

    package var declarations: [FormatDeclaration] { readers.map { $0.declaration } }
    package var formats: [InputFormat] { readers.map { $0.declaration.format } }

    package func reader(for format: InputFormat) -> (any FormatReader.Type)? {
        readers.first { $0.declaration.format == format }
    }

    /// The format of a file from its first bytes (`SniffText.length` of them), never its name.
    package func sniff(_ prefix: [UInt8]) -> InputFormat? {
        guard let text = SniffText(prefix) else { return nil }
        return readers.first { $0.sniff(text) }?.declaration.format
    }
}
