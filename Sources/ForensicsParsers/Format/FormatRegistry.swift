import ForensicsCore

/// The formats the tool reads, in the order `formats` lists them: the one list everything about
/// formats derives from (ingest, `--log-format`, `formats`, the fuzz targets, the sample test).
///
/// Sniffing asks the readers in `sniffPriority` order, where evidence overlaps: a HAR capture is
/// JSON that may mention `"events"`, so HAR is asked before metric events; the KTVHTTPCache log,
/// recognised by a word anywhere in the first 64 KiB, is asked last. (Playlists and W3C logs
/// cannot both match: `SniffText.headerDirective` decides between them.)
package struct FormatRegistry: Sendable {
    package var readers: [any FormatReader.Type] {
        didSet { sniffingOrder = Self.sniffingOrder(readers) }
    }
    private var sniffingOrder: [any FormatReader.Type]

    package init(readers: [any FormatReader.Type]) {
        self.readers = readers
        self.sniffingOrder = Self.sniffingOrder(readers)
    }

    /// Readers by priority, registry order among equals.
    private static func sniffingOrder(_ readers: [any FormatReader.Type]) -> [any FormatReader.Type] {
        readers.enumerated().sorted { a, b in
            let (pa, pb) = (a.element.declaration.sniffPriority, b.element.declaration.sniffPriority)
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
    }

    package static let standard = FormatRegistry(readers: [
        MetricEventsFormat.self,
        AVPlayerAccessLogFormat.self,
        AVPlayerErrorLogFormat.self,
        CacheLogFormat.self,
        PlaylistFormat.self,
        HARFormat.self,
        DeviceConsoleFormat.self,
        CloudFrontStandardLog.self,
        CloudflareLogpushLog.self,
        AkamaiDataStreamLog.self,
        GoogleCloudCDNLog.self,
        CombinedAccessLog.self,
    ])
    /// The server logs read only with a layout the user gives (`--cdn-log-format KIND=LAYOUT`).
    package static let configurable: [any ConfigurableServerLog.Type] = [
        NginxAccessLog.self,
        ApacheAccessLog.self,
        FastlyLog.self,
        CloudFrontRealtimeLog.self,
    ]
    /// The layouts given for this run, each a declaration: asked before the readers, in the
    /// order given (a line that matches a layout the user stated is the strongest evidence).
    package var configured: [ServerLogDeclaration] = []

    package var declarations: [FormatDeclaration] { readers.map { $0.declaration } }
    package var formats: [InputFormat] { readers.map { $0.declaration.format } }
    /// Every format a file can be read as: the readers', then the configurable kinds'.
    package static var allFormats: [InputFormat] {
        standard.formats + configurable.map { $0.format }
    }
    /// What each format is, for the correlator, the KPIs and the reports.
    package var descriptors: [SourceDescriptor] { readers.map { $0.declaration.descriptor } }

    /// What a format declares it is; `.undeclared` for a format this registry does not list.
    package func semantics(of format: InputFormat) -> SourceSemantics {
        reader(for: format)?.declaration.semantics ?? configured.first { $0.format == format }?.semantics
            ?? .undeclared
    }

    /// The declaration a server log format is read by (a vendor's, or a layout given).
    package func serverDeclaration(for format: InputFormat) -> ServerLogDeclaration? {
        if let vendor = reader(for: format) as? any ServerLogVendor.Type { return vendor.vendor }
        return configured.first { $0.format == format }
    }

    /// The first layout given whose rows a file's first line reads as.
    package func sniffConfigured(_ prefix: [UInt8]) -> ServerLogDeclaration? {
        guard !configured.isEmpty, let text = SniffText(prefix) else { return nil }
        return configured.first { $0.firstLineReads(text) }
    }

    package func reader(for format: InputFormat) -> (any FormatReader.Type)? {
        readers.first { $0.declaration.format == format }
    }

    /// The format of a file from its first bytes (`SniffText.length` of them), never its name.
    package func sniff(_ prefix: [UInt8]) -> InputFormat? {
        guard let text = SniffText(prefix) else { return nil }
        return sniffingOrder.first { $0.sniff(text) }?.declaration.format
    }
}
