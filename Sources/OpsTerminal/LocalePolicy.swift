/// Glyph choice from the locale.
public enum LocalePolicy {
  /// True for the codeset names `nl_langinfo(CODESET)` gives a UTF-8 locale ("UTF-8", "utf8").
  public static func isUTF8(codeset: String) -> Bool {
    let name = codeset.lowercased().filter { $0 != "-" && $0 != "_" }
    return name == "utf8"
  }
}
