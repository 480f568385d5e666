import OperationsDiagrams
import Testing

@testable import Operations

/// Display width per grapheme.
struct DisplayWidthTests {
    @Test(arguments: [
        ("AuthAPI", 7), ("", 0), ("漢字", 4), ("ｶﾀｶﾅ", 4), ("한국어", 6), ("e\u{301}", 1), ("\u{301}", 0),
        ("👍", 2), ("👨‍👩‍👧", 2), ("🇫🇷", 2), ("tok…a1f3", 8), ("••••••", 6), ("a\u{200B}b", 2), ("☺\u{FE0F}", 2),
    ])
    func width(text: String, expected: Int) {
        #expect(text.displayWidth == expected)
    }

    @Test func wideLabelsKeepLinesWithinTheWidth() throws {
        let trace = Trace(events: [
            .declare(.operation("登録Op")), .declare(.keyService("認証API")),
            .call(from: "登録Op", to: "認証API", "コードを送信する(電話番号) 👍 café"),
            .reply(from: "認証API", to: "登録Op", "トークン"),
        ])
        for width in [40, 60, 100] {
            for charset in [DiagramCharset.unicode, .ascii] {
                let text = try TextDiagramRenderer(maxWidth: width, charset: charset).render(trace)
                for line in text.split(separator: "\n") { #expect(line.displayWidth <= width) }
            }
        }
    }
}
