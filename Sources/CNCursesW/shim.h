// After editing this header, touch Sources/OpsTerminal/*.swift (or clean): SwiftPM does not recompile
// Swift files when a system-library header changes, and stale objects link against the old inlines.
//
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, which hides the wide-character API: ask for it here.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <langinfo.h>
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
// Debian puts the wide API under ncursesw/; Homebrew's ncurses (keg-only) and others at the top.
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

// Macros and C globals are invisible or unsafe in Swift 6: expose them as functions.
static inline attr_t opsview_a_bold(void) { return A_BOLD; }
static inline attr_t opsview_a_reverse(void) { return A_REVERSE; }
static inline attr_t opsview_a_dim(void) { return A_DIM; }
static inline attr_t opsview_a_underline(void) { return A_UNDERLINE; }
static inline attr_t opsview_a_normal(void) { return A_NORMAL; }
static inline int opsview_key_code_yes(void) { return KEY_CODE_YES; }

// wcwidth is declared only under _XOPEN_SOURCE, which SwiftPM drops (see above).
extern int wcwidth(wchar_t c);
static inline int opsview_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

static inline WINDOW *opsview_stdscr(void) { return stdscr; }
static inline int opsview_colors(void) { return COLORS; }

// Colour pairs past a short's range need ncurses 6.1 (init_extended_pair, setcchar's opts carrying
// the pair as an int). Before that (macOS's own ncurses is 5.7) there is init_pair, pair numbers
// stop at SHRT_MAX, and setcchar refuses (ERR) any opts but NULL.
#if defined(NCURSES_VERSION_MAJOR) && \
    (NCURSES_VERSION_MAJOR > 6 || (NCURSES_VERSION_MAJOR == 6 && NCURSES_VERSION_MINOR >= 1))
#define OPSVIEW_EXTENDED_PAIRS 1
#else
#define OPSVIEW_EXTENDED_PAIRS 0
#endif
static inline int opsview_extended_pairs(void) { return OPSVIEW_EXTENDED_PAIRS; }
static inline int opsview_color_pairs(void) {
  return OPSVIEW_EXTENDED_PAIRS || COLOR_PAIRS <= SHRT_MAX ? COLOR_PAIRS : SHRT_MAX;
}
static inline int opsview_init_pair(int pair, int foreground, int background) {
#if OPSVIEW_EXTENDED_PAIRS
  return init_extended_pair(pair, foreground, background);
#else
  if (pair > SHRT_MAX || foreground > SHRT_MAX || background > SHRT_MAX) return ERR;
  return init_pair((short)pair, (short)foreground, (short)background);
#endif
}
static inline int opsview_setcchar(cchar_t *cell, const wchar_t *text, attr_t attributes, int pair) {
#if OPSVIEW_EXTENDED_PAIRS
  return setcchar(cell, text, attributes, (short)(pair < SHRT_MAX ? pair : SHRT_MAX), &pair);
#else
  return setcchar(cell, text, attributes, (short)(pair < SHRT_MAX ? pair : SHRT_MAX), NULL);
#endif
}
static inline FILE *opsview_stdout(void) { return stdout; }
static inline FILE *opsview_stdin(void) { return stdin; }

static inline mmask_t opsview_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t opsview_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t opsview_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t opsview_button5_pressed(void) { return BUTTON5_PRESSED; }

// Signals and crash safety live in their own C target (Sources/CTerminalSignals), with their state
// defined once in a .c file.

// ---------------------------------------------------------------------------------------------------
// Terminal checks.

// cbreak keeps Ctrl-C/Ctrl-Z as signals but leaves XON/XOFF on, so Ctrl-S would freeze the board.
// Turn flow control off and make it part of the mode ncurses restores after a suspend.
static inline void opsview_disable_flow_control(int fd) {
  struct termios modes;
  if (tcgetattr(fd, &modes) != 0) return;
  modes.c_iflag &= ~(tcflag_t)IXON;
  tcsetattr(fd, TCSANOW, &modes);
  def_prog_mode();
}

// After a hangup the terminal reads end-of-file forever: tells a dead input from an interrupted one.
static inline int opsview_input_hung_up(int fd) {
  struct pollfd entry = {fd, POLLIN, 0};
  if (poll(&entry, 1, 0) < 0) return 0;
  return (entry.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

#if __has_include(<ncursesw/term.h>)
#include <ncursesw/term.h>
#else
#include <term.h>
#endif

// 0: usable; 1: unknown or generic terminal type; 2: no terminfo database; 3: cannot address the
// cursor (hardcopy, dumb). Loads the entry without touching the screen, then discards it.
static inline int opsview_terminfo_status(const char *opsview_name) {
  int opsview_error = 0;
  if (setupterm((char *)opsview_name, STDOUT_FILENO, &opsview_error) != OK) {
    if (opsview_error == -1) return 2;
    if (opsview_error == 1) return 3;
    return 1;
  }
  char *opsview_cup = tigetstr("cup");
  int opsview_usable = opsview_cup != NULL && opsview_cup != (char *)-1;
  del_curterm(cur_term);
  return opsview_usable ? 0 : 3;
}
