/// The tool's name and version, as written into reports.
public enum ToolInfo {
    public static let name = "playback-forensics"
    public static let version = "0.1.0"
}
