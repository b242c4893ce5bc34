/// Every rule the analyzer has, in catalogue order (`shared/spec/rules.md`).
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        SlowStartupRule.self,
        SlowKeyFetchRule.self,
        MissingSessionKeyRule.self,
        InitialVariantTooHighRule.self,
        PlaylistNotCompressedRule.self,
        Segment404DownswitchRule.self,
        StallRule.self,
        ExcessiveSwitchingRule.self,
        SegmentErrorsRule.self,
        PlaybackFailedRule.self,
        SlowSegmentDownloadRule.self,
        ProxyUnreachableRule.self,
        ProxyUnplayableContentTypeRule.self,
        ProxyOriginErrorsRule.self,
        ProxyCacheIneffectiveRule.self,
    ]

    public static var descriptions: [RuleDescription] { all.map { $0.description } }
}
