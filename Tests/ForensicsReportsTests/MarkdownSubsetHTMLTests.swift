import Testing

@testable import ForensicsReports

/// The HTML report is the Markdown report converted (`MarkdownSubsetHTML`): each construct the
/// Markdown writer uses, and log text — escaped by `MarkdownText` on its bytes — shown exactly as
/// logged, whatever follows an escaped character.
@Suite struct MarkdownSubsetHTMLTests {
    @Test func eachConstructTheMarkdownWriterUsesBecomesItsElement() {
        let markdown = """
            # Report `a`
            ## Report `a`
            A paragraph with **bold**, `code <b>`, [a link](https://h.example/a?b=1&c=2) and
            [a bundle](bundles/x.html) but not [a script](javascript:alert); &lt; stays, & does not.

            - one \\| two
            - three
            | Time | Record |
            | --- | --- |
            | 1 | a \\| b `c\\|d` |
            <details><summary>The rows as logged</summary>
            ```text
            <raw> & "quoted"
            ```
            ```pf-svg
            <svg class="picture"></svg>
            ```
            </details>
            """
        let html = MarkdownSubsetHTML.convert(markdown)
        let expected = """
            <h1 id="report-a">Report <code>a</code></h1>
            <h2 id="report-a-1">Report <code>a</code></h2>
            <p>A paragraph with <strong>bold</strong>, <code>code &lt;b&gt;</code>, <a href="https://h.example/a?b=1&amp;c=2">a link</a> and \
            <a href="bundles/x.html">a bundle</a> but not a script; &lt; stays, &amp; does not.</p>
            <ul><li>one | two</li><li>three</li></ul>
            <table><thead><tr><th>Time</th><th>Record</th></tr></thead><tbody><tr><td>1</td><td>a | b <code>c|d</code></td></tr></tbody></table>
            <details><summary>The rows as logged</summary>
            <pre><code>&lt;raw&gt; &amp; &quot;quoted&quot;</code></pre>
            <svg class="picture"></svg>
            </details>

            """
        #expect(html == expected)
    }

    @Test func logTextShowsAsLoggedWhateverFollowsAnEscapedCharacter() {
        // A combining mark after `|`, `` ` ``, `\` or `*` makes one Character of the two: read
        // Character by Character, the escaping backslash showed and the bar split nothing.
        let texts = [
            "é \\`\u{301} |\u{301} [a`]`](b) **\u{301} \\\\\u{301} *\u{301}*",
            "`code` ``double`` |pipe| \\| **bold** [link](javascript:alert(1)) [ok](https://x.example/a)",
            "&lt;script&gt; <script>alert(1)</script> &amp; & &quot; ` unclosed _under_ ~strike~ !bang #hash",
            "🟥 🔴 ✓ 中文 עברית 👩‍👩‍👧",
            "&\u{301} <\u{301} >\u{301} `\u{301}code` [x](a:\u{301}b) |\u{301}",
        ]
        for raw in texts {
            let escaped = MarkdownText.escape(raw, limit: 1000)
            let html = MarkdownSubsetHTML.convert("| Record |\n| --- |\n| Text: \(escaped) |")
            #expect(
                html
                    == "<table><thead><tr><th>Record</th></tr></thead><tbody><tr><td>Text: \(XMLText.escape(raw))</td></tr></tbody></table>\n",
                "\(raw)")
        }
    }

    @Test func escapingChangesOnlyWhatMustChange() {
        #expect(XMLText.escape("plain text, ünïcode ✓") == "plain text, ünïcode ✓")
        #expect(XMLText.escape("a<b>&\"c\"\u{1}\td\ne\r") == "a&lt;b&gt;&amp;&quot;c&quot; \td\ne ")
        #expect(XMLText.escape("") == "")
    }

    @Test func theSeverityMarksBecomeThePagesOwnShapesEverywhere() {
        let page = HTMLReporter.page(markdown: "🟥 critical, `🔴` in code\n\n🟠 🔵", title: "t", toolVersion: "1")
        #expect(!page.contains("🟥") && !page.contains("🔴") && !page.contains("🟠") && !page.contains("🔵"))
        #expect(page.contains("<code><span class=\"sev sev-error\">●</span></code>"))
        #expect(page.hasSuffix("</body>\n</html>\n"))
    }
}
