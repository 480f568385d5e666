/// The document every page of the web view is: its own small style sheet, no script, and a
/// content security policy that lets none run, so a value an escape missed still could not act.
enum HTMLPage {
    /// A whole HTML document titled `title` (escaped here) around `body` (already escaped);
    /// with `refreshSeconds`, one the browser reloads that often (a meta refresh, which the
    /// content security policy does not govern, so a live run is followed with no script).
    static func document(title: String, body: String, refreshSeconds: Int? = nil) -> String {
        let refresh = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">\n" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(refresh)<title>\(HTMLEscaping.text(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// A link to `href` (a path built from escaped components) reading `text`.
    static func link(_ href: String, _ text: String) -> String {
        "<a href=\"\(HTMLEscaping.attribute(href))\">\(HTMLEscaping.text(text))</a>"
    }

    private static let style = """
        body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}\
        h1{font-size:1.3em}table{border-collapse:collapse}\
        th,td{text-align:left;padding:.2em .8em;border-bottom:1px solid #ddd;vertical-align:top}\
        .succeeded{color:#176f2c}.failed,.damaged{color:#b00020}.interrupted,.cancelled{color:#8a5a00}\
        .running{color:#1a4fa0}ol.steps{list-style:none;padding:0;font-family:ui-monospace,monospace}\
        ol.steps li{white-space:pre-wrap}.diagram{overflow:auto;border:1px solid #ddd;padding:.5em}\
        nav a{margin-right:.8em}form{margin:.5em 0}label{margin-right:.6em}
        """
}
