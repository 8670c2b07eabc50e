// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, which hides the wide-character API: ask for it here.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

// Macros and C globals are invisible or unsafe in Swift 6: expose them as functions.
static inline attr_t opsview_a_bold(void) { return A_BOLD; }
static inline attr_t opsview_a_reverse(void) { return A_REVERSE; }
static inline attr_t opsview_a_dim(void) { return A_DIM; }
static inline attr_t opsview_a_underline(void) { return A_UNDERLINE; }
static inline attr_t opsview_a_normal(void) { return A_NORMAL; }
static inline int opsview_key_code_yes(void) { return KEY_CODE_YES; }
