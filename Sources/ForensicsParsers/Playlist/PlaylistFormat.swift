import ForensicsCore

/// HLS playlists (RFC 8216 and its draft successor), multivariant or media: one record holding the
/// playlist's snapshot, and the whole parsed playlist for `parse` and the benchmarks.
package enum PlaylistFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .playlist, displayName: "HLS playlist (m3u8)",
        semantics: SourceSemantics(
            role: .stream, clock: .none, anchor: .none, resolution: 1, clockPrecedence: 5, viewPrecedence: 5,
            capabilities: [.playlists]),
        summary: "HLS playlist (RFC 8216 and draft), multivariant or media, raw or gzip.",
        samples: [
            FormatDeclaration.Sample(
                text: """
                    #EXTM3U
                    #EXT-X-TARGETDURATION:6
                    #EXTINF:6.0,
                    s1.ts
                    #EXT-X-ENDLIST
                    """,
                expectedSummaries: ["media playlist  with 1 segments"])
        ])

    package static func sniff(_ text: SniffText) -> Bool {
        if case .playlistTag = text.headerDirective { return true }
        return false
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            let parsed = try PlaylistParser(file: context.path, url: nil).parse(lines: &lines)
            var result = ParseResult(file: context.path, format: declaration.format)
            result.diagnostics = parsed.diagnostics
            result.playlists = [parsed.playlist]
            result.records.append(
                Record(
                    time: nil, location: SourceLocation(file: context.path, line: 1), format: declaration.format,
                    sessionID: nil, payload: .playlist(parsed.playlist.checkedSnapshot)))
            return result
        }
    }
}
