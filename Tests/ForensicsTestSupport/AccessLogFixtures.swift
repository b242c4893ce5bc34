/// AVPlayer access logs written from Apple's field list (`avplayer-access-log.md`), shared by the
/// tests that need one.
package enum AccessLogFixtures {
    /// Two rows of one session; `secondRowTail` is appended to the second (` extra` makes it a
    /// row of one field too many, refused at line 6, with 4 stalls in it).
    package static func twoRows(secondRowTail: String = "") -> String {
        """
        #Version: 1.0
        #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
        #Date: 2026/11/21 10:01:00.000
        #Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls
        2026/11/21 10:00:00.000 https://cdn.example.com/a/master.m3u8 G1 0 60 0
        2026/11/21 10:01:00.000 https://cdn.example.com/a/master.m3u8 G1 60 60 4\(secondRowTail)
        """
    }
}
