import CYaml

/// Yams checks mapping keys for duplicates by hashing them, and an alias-built key can stand for an
/// exponentially large tree ("billion laughs"), which would hang the loader. Scenario keys are always
/// plain names, so a key that is an alias, a list or a mapping is an error anyway; this finds the
/// first one before Yams composes anything.
///
/// It reads libyaml's events, not the text: a scan of the text missed keys written in ways it did not
/// foresee (the fuzzer found `[*a, ? *b]`, an explicit key inside a flow list, which hung the loader).
/// Events name every node with its role, and an alias is one event however much it stands for, so
/// this is linear in the file. It runs only when the fast composer hands a file to Yams (files with
/// errors or unusual YAML), so good files never pay for it.
enum ComplexKeyGuard {
  /// The 1-based place of the first key that is not a scalar, among the events libyaml produces
  /// before the end of the stream or its first syntax error (Yams stops at that error too).
  static func find(in text: String) -> (line: Int, column: Int)? {
    var text = text
    return text.withUTF8 { bytes in
      var parser = yaml_parser_t()
      guard yaml_parser_initialize(&parser) == 1 else { return nil }
      defer { yaml_parser_delete(&parser) }
      yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
      yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
      // For each open collection: nil for a list, or whether a mapping's next node is a key.
      var open: [Bool?] = []
      func nodeEnded() {
        if let last = open.last, let expectsKey = last { open[open.count - 1] = !expectsKey }
      }
      while true {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        let isKey = open.last.map { $0 == true } ?? false
        let place = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_END_EVENT:
          return nil
        case YAML_SCALAR_EVENT:
          nodeEnded()
        case YAML_ALIAS_EVENT:
          if isKey { return place }
          nodeEnded()
        case YAML_SEQUENCE_START_EVENT:
          if isKey { return place }
          open.append(nil)
        case YAML_MAPPING_START_EVENT:
          if isKey { return place }
          open.append(true)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
          open.removeLast()
          nodeEnded()
        default:
          continue
        }
      }
    }
  }
}
