/// Every rule the analyzer has, in catalogue order (`shared/spec/rules.md`).
package enum RuleRegistry {
    package static let all: [any Rule.Type] = [
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
        ContentKeyFailedRule.self,
        PlaylistParseErrorRule.self,
        LiveStartNearEdgeRule.self,
        SlowSegmentDownloadRule.self,
        StreamDefectsRule.self,
        PlaylistUnavailableRule.self,
        SegmentExceedsDeclaredBandwidthRule.self,
        ProxyUnreachableRule.self,
        ProxyUnplayableContentTypeRule.self,
        ProxyOriginErrorsRule.self,
        ProxyCacheIneffectiveRule.self,
    ]

    package static var descriptions: [RuleDescription] { all.map { $0.description } }
}
