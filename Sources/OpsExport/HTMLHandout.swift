import OpsEngine
import OpsEvents

/// What a scenario teaches, for the HTML handout: its moments where the board stops for them, and the
/// question the board's quiz asks at each. Computed by the command line (the quiz is the board's own
/// `QuizMaker`, reached through `HandoutQuiz` in OpsBoard) and handed to the writer as plain data.
public struct HTMLTeaching: Sendable, Equatable {
  public struct Stop: Sendable, Equatable {
    /// How many events are shown when the board stops for it (its `MomentRun.Stop.seq`).
    public var seq: Int
    public var time: Double
    public var caption: String
    /// The claims in words, as the board lists them beside the caption.
    public var claims: [String]

    public init(seq: Int, time: Double, caption: String, claims: [String]) {
      self.seq = seq
      self.time = time
      self.caption = caption
      self.claims = claims
    }
  }

  public struct Question: Sendable, Equatable {
    /// Index into `stops`: the moment it is asked at.
    public var stop: Int
    public var prompt: String
    public var choices: [String]
    public var answer: Int
    /// Every choice the engine makes true.
    public var accepted: [Int]
    /// How many events are shown once the answer is revealed.
    public var revealAt: Int
    public var explanation: String
    public var focus: String

    public init(
      stop: Int, prompt: String, choices: [String], answer: Int, accepted: [Int], revealAt: Int,
      explanation: String, focus: String
    ) {
      self.stop = stop
      self.prompt = prompt
      self.choices = choices
      self.answer = answer
      self.accepted = accepted
      self.revealAt = revealAt
      self.explanation = explanation
      self.focus = focus
    }
  }

  public var stops: [Stop]
  public var questions: [Question]

  public init(stops: [Stop], questions: [Question]) {
    self.stops = stops
    self.questions = questions
  }
}

/// `--format html`: one self-contained page that replays the run in a browser. It embeds the run's
/// events exactly as `trace --format jsonl` prints them (docs/EVENTS.md), each state event's cause
/// and each event's log line in the engine's words, the moments and the quiz; a small script
/// (`HTMLPage.script`) folds the events as docs/EVENTS.md describes to draw the table, the queues, the
/// state machine and the why lines at any position of the slider. Nothing is fetched: no URL at all.
public enum HTMLHandout {
  /// Past this many operations the page leaves the timeline picture out (it would be megabytes).
  public static let pictureLimit = 400

  public static func render(_ source: ExportSource) -> String {
    String(decoding: renderBytes(source), as: UTF8.self)
  }

  public static func renderBytes(_ source: ExportSource) -> [UInt8] {
    var out: [UInt8] = []
    let title = source.title.isEmpty ? source.id : source.title
    out.append(contentsOf: HTMLPage.head.utf8)
    out.append(contentsOf: "<title>\(html(title)) — opsview</title>\n".utf8)
    out.append(contentsOf: "<style>\n\(HTMLPage.style)</style>\n</head>\n".utf8)
    out.append(contentsOf: HTMLPage.body.utf8)
    // The SVG export's picture (rows, dependency arrows, marks), made interactive by the script.
    out.append(contentsOf: "<template id=\"picture\">".utf8)
    if source.projection.operations.count <= pictureLimit {
      for scalar in String(decoding: SVGTimeline.renderBytes(source, inline: true), as: UTF8.self)
        .unicodeScalars
      {
        switch scalar {
        case "\u{2028}": out.append(contentsOf: "&#x2028;".utf8)
        case "\u{2029}": out.append(contentsOf: "&#x2029;".utf8)
        default: out.append(contentsOf: String(scalar).utf8)
        }
      }
    }
    out.append(contentsOf: "</template>\n".utf8)
    out.append(contentsOf: "<script type=\"application/json\" id=\"run\">".utf8)
    appendInert(data(source), to: &out)
    out.append(contentsOf: "</script>\n<script>\n".utf8)
    out.append(contentsOf: HTMLPage.script.utf8)
    out.append(contentsOf: "</script>\n</body>\n</html>\n".utf8)
    return out
  }

  /// Text in HTML: XML's escaping, and the line and paragraph separators as references.
  static func html(_ s: String) -> String {
    var out = ""
    for scalar in Escape.xml(s).unicodeScalars {
      switch scalar {
      case "\u{2028}": out += "&#x2028;"
      case "\u{2029}": out += "&#x2029;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// The embedded run as JSON: the events (docs/EVENTS.md), and beside them, index for index, the
  /// cause of each state event and each event's log line, in the engine's words (see `texts`).
  static func data(_ source: ExportSource) -> [UInt8] {
    var out: [UInt8] = []
    func key(_ k: String) {
      out.append(UInt8(ascii: ","))
      JSONValue.writeString(k, into: &out)
      out.append(UInt8(ascii: ":"))
    }
    func string(_ s: String) { JSONValue.writeString(s, into: &out) }
    func strings(_ list: [String]) {
      out.append(UInt8(ascii: "["))
      for (i, s) in list.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        string(s)
      }
      out.append(UInt8(ascii: "]"))
    }
    func ints(_ list: [Int]) {
      out.append(contentsOf: "[\(list.map(String.init).joined(separator: ","))]".utf8)
    }
    out.append(contentsOf: #"{"format":1"#.utf8)
    key("id")
    string(source.id)
    key("title")
    string(source.title)
    key("lesson")
    string(source.lesson)
    key("end")
    out.append(contentsOf: formatSeconds(source.end).utf8)
    key("complete")
    out.append(contentsOf: (source.eventCount == source.events.count ? "true" : "false").utf8)
    key("events")
    out.append(UInt8(ascii: "["))
    for (i, e) in source.events.enumerated() {
      if i > 0 { out.append(contentsOf: ",\n".utf8) }
      e.appendJSONLine(to: &out)
    }
    out.append(UInt8(ascii: "]"))
    // The engine's words, each distinct text once (`texts`): most causes and log lines repeat
    // ("its work returned", "didStart: execution begins"), and on a large run they were a third of
    // the page. `causes[i]`: 1 + the index of event i's cause in `texts`, 0 for none. `log[i]`:
    // 0 when the line is the operation, its transition and its cause (the page joins them); n > 0
    // for the operation and `texts[n - 1]`; else the whole line. Each form is chosen only when it
    // gives back exactly the engine's line.
    var texts: [String] = []
    var textIndex: [String: Int] = [:]
    func intern(_ text: String) -> Int {
      if let i = textIndex[text] { return i + 1 }
      textIndex[text] = texts.count
      texts.append(text)
      return texts.count
    }
    var causes: [Int] = []
    causes.reserveCapacity(source.events.count)
    var log: [UInt8] = [UInt8(ascii: "[")]
    for (i, e) in source.events.enumerated() {
      if i > 0 { log.append(UInt8(ascii: ",")) }
      var summary: [UInt8] = []
      e.kind.appendSummary(to: &summary)
      let text = String(decoding: summary, as: UTF8.self)
      let subject = e.kind.subject
      if case .state(let o, let from, let to, let cause) = e.kind {
        causes.append(intern(cause.text))
        if o == subject && text == "\(from.rawValue) → \(to.rawValue): \(cause.text)" {
          log.append(0x30)
          continue
        }
      } else {
        causes.append(0)
      }
      if let o = e.kind.operation, o == subject {
        log.append(contentsOf: String(intern(text)).utf8)
      } else {
        JSONValue.writeString(subject + ": " + text, into: &log)
      }
    }
    log.append(UInt8(ascii: "]"))
    key("causes")
    ints(causes)
    key("log")
    out.append(contentsOf: log)
    key("texts")
    strings(texts)
    key("moments")
    out.append(UInt8(ascii: "["))
    for (i, stop) in (source.teaching?.stops ?? []).enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"seq":\#(stop.seq),"time":"#.utf8)
      out.append(contentsOf: formatSeconds(stop.time).utf8)
      key("caption")
      string(stop.caption)
      key("claims")
      strings(stop.claims)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    key("quiz")
    out.append(UInt8(ascii: "["))
    for (i, q) in (source.teaching?.questions ?? []).enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(
        contentsOf: #"{"stop":\#(q.stop),"answer":\#(q.answer),"revealAt":\#(q.revealAt)"#.utf8)
      key("accepted")
      ints(q.accepted)
      key("prompt")
      string(q.prompt)
      key("choices")
      strings(q.choices)
      key("explanation")
      string(q.explanation)
      key("focus")
      string(q.focus)
      out.append(UInt8(ascii: "}"))
    }
    out.append(contentsOf: "]}".utf8)
    return out
  }

  /// JSON inside a `<script>` element is inert when no `<` can close it or open a comment: `<`, `>`
  /// and `&` (only ever inside JSON strings) become `\u003c`, `\u003e`, `\u0026`, and U+2028/U+2029
  /// become escapes too, so the JSON is also valid JavaScript. JSON.parse reads the same strings.
  static func appendInert(_ json: [UInt8], to out: inout [UInt8]) {
    let needed = out.count + json.count + 64
    // Doubling, not exactly what this piece needs: called once a piece, exact reservations would
    // copy the whole page each time.
    if out.capacity < needed { out.reserveCapacity(max(needed, out.count * 2)) }
    var i = 0
    while i < json.count {
      let b = json[i]
      switch b {
      case UInt8(ascii: "<"): out.append(contentsOf: #"\u003c"#.utf8)
      case UInt8(ascii: ">"): out.append(contentsOf: #"\u003e"#.utf8)
      case UInt8(ascii: "&"): out.append(contentsOf: #"\u0026"#.utf8)
      case 0xE2
      where i + 2 < json.count && json[i + 1] == 0x80
        && (json[i + 2] == 0xA8 || json[i + 2] == 0xA9):
        out.append(contentsOf: (json[i + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        i += 2
      default: out.append(b)
      }
      i += 1
    }
  }
}
