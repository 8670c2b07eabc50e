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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <pthread.h>
#include <semaphore.h>
#include <ncursesw/curses.h>

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
static inline int opsview_color_pairs(void) { return COLOR_PAIRS; }
static inline FILE *opsview_stdout(void) { return stdout; }
static inline FILE *opsview_stdin(void) { return stdin; }

static inline mmask_t opsview_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t opsview_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t opsview_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t opsview_button5_pressed(void) { return BUTTON5_PRESSED; }

// ---------------------------------------------------------------------------------------------------
// Signals and crash safety. These helpers keep state in `static` variables, and every Swift object
// file that calls a static inline function gets its own copy of it: call them from ONE Swift file
// (OpsTerminal/SignalGuard.swift) so they all share one copy.

static volatile sig_atomic_t opsview_quit_signal = 0;
static volatile sig_atomic_t opsview_quit_acknowledged = 0;
static volatile sig_atomic_t opsview_curses_active = 0;
static int opsview_nudger_started = 0;
static int opsview_saved_stderr = -1;
static int opsview_captured_stderr = -1;
static const int opsview_quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int opsview_crash_signals[] = {SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP};
#define OPSVIEW_COUNT(array) (sizeof array / sizeof array[0])
// A file-scope static without an initializer (a tentative definition) is not emitted by Swift's
// Clang importer: undefined symbol at link time. Function-local statics are.
static inline sem_t *opsview_quit_semaphore(void) {
  static sem_t semaphore;
  return &semaphore;
}
static inline pthread_t *opsview_loop_thread(void) {
  static pthread_t thread;
  return &thread;
}
static inline struct sigaction *opsview_previous_actions(void) {
  static struct sigaction actions[NSIG];
  return actions;
}

// Puts fd 2 back and replays what was written to it while the screen was ours. Async-signal-safe.
static inline void opsview_stderr_capture_end(void) {
  if (opsview_saved_stderr < 0) return;
  dup2(opsview_saved_stderr, STDERR_FILENO);
  close(opsview_saved_stderr);
  opsview_saved_stderr = -1;
  int captured = opsview_captured_stderr;
  opsview_captured_stderr = -1;
  if (captured < 0) return;
  if (lseek(captured, 0, SEEK_SET) == 0) {
    char buffer[4096];
    ssize_t n;
    while ((n = read(captured, buffer, sizeof buffer)) > 0) {
      ssize_t done = 0;
      while (done < n) {
        ssize_t w = write(STDERR_FILENO, buffer + done, (size_t)(n - done));
        if (w <= 0) break;
        done += w;
      }
      if (done < n) break;
    }
  }
  close(captured);
}

// Anything written to stderr while curses owns the screen (a runtime error message, a stray log line)
// would scribble over the board and vanish with the alternate screen: keep it and show it afterwards.
static inline void opsview_stderr_capture_begin(void) {
  if (opsview_saved_stderr >= 0) return;
  FILE *file = tmpfile();
  if (file == NULL) return;
  int captured = dup(fileno(file));
  fclose(file);
  if (captured < 0) return;
  int saved = dup(STDERR_FILENO);
  if (saved < 0) {
    close(captured);
    return;
  }
  fflush(stderr);
  opsview_captured_stderr = captured;
  opsview_saved_stderr = saved;
  dup2(captured, STDERR_FILENO);
}

static inline void opsview_set_curses_active(int active) { opsview_curses_active = active; }

// SIGINT/SIGTERM/SIGHUP/SIGQUIT: only note the signal; the input loop restores the terminal.
static inline void opsview_on_quit_signal(int sig) {
  int saved_errno = errno;
  if (opsview_quit_signal == 0) opsview_quit_signal = sig;
  sem_post(opsview_quit_semaphore());
  errno = saved_errno;
}

// A signal that lands just before the loop enters its blocking read would be noticed only at the next
// key. This thread keeps interrupting the loop thread until the loop acknowledges the signal.
static inline void *opsview_quit_nudger(void *unused) {
  (void)unused;
  // Leave process-directed signals to the loop thread (whose read they must interrupt); keep
  // SIGPROF and the fault signals, which the Swift runtime's backtracer uses to inspect threads.
  const int asynchronous[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT,
                              SIGTTIN, SIGTTOU, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGPIPE};
  sigset_t blocked;
  sigemptyset(&blocked);
  for (unsigned i = 0; i < OPSVIEW_COUNT(asynchronous); i++) sigaddset(&blocked, asynchronous[i]);
  pthread_sigmask(SIG_BLOCK, &blocked, NULL);
  struct timespec pause = {0, 50 * 1000 * 1000};
  for (;;) {
    while (sem_wait(opsview_quit_semaphore()) != 0) {
    }
    int sig;
    while (!opsview_quit_acknowledged && (sig = opsview_quit_signal) != 0) {
      pthread_kill(*opsview_loop_thread(), sig);
      nanosleep(&pause, NULL);
    }
  }
  return NULL;
}

// A Swift trap (SIGILL/SIGTRAP), crash or abort: put the terminal back, show what went to stderr,
// then let the previous handler (the Swift runtime's backtracer, or the default) see the signal.
static inline void opsview_on_crash_signal(int sig) {
  if (opsview_curses_active) {
    opsview_curses_active = 0;
    endwin();  // not async-signal-safe, but the process is dying and a broken terminal is worse
  }
  opsview_stderr_capture_end();
  sigaction(sig, &opsview_previous_actions()[sig], NULL);
  raise(sig);
}

// Installs the handlers, remembering the previous ones; call before newterm so ncurses leaves
// SIGINT/SIGTERM to us. No SA_RESTART: a blocking read in wget_wch must return when a signal
// arrives. Returns 0 on success.
static inline int opsview_install_signal_handlers(void) {
  *opsview_loop_thread() = pthread_self();
  opsview_quit_signal = 0;
  opsview_quit_acknowledged = 0;
  if (!opsview_nudger_started) {
    if (sem_init(opsview_quit_semaphore(), 0, 0) != 0) return -1;
    pthread_t nudger;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int created = pthread_create(&nudger, &attributes, opsview_quit_nudger, NULL);
    pthread_attr_destroy(&attributes);
    if (created != 0) return -1;
    opsview_nudger_started = 1;
  }

  // A parent may have started us with these blocked (a child inherits its signal mask): unblock
  // them on the loop thread, or Ctrl-C, SIGTERM and resizes would never reach it.
  const int wanted[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};
  sigset_t unblock;
  sigemptyset(&unblock);
  for (unsigned i = 0; i < OPSVIEW_COUNT(wanted); i++) sigaddset(&unblock, wanted[i]);
  pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);

  struct sigaction quit;
  memset(&quit, 0, sizeof quit);
  quit.sa_handler = opsview_on_quit_signal;
  sigemptyset(&quit.sa_mask);
  quit.sa_flags = 0;
  for (unsigned i = 0; i < OPSVIEW_COUNT(opsview_quit_signals); i++) {
    int sig = opsview_quit_signals[i];
    sigaction(sig, &quit, &opsview_previous_actions()[sig]);
  }

  struct sigaction crash;
  memset(&crash, 0, sizeof crash);
  crash.sa_handler = opsview_on_crash_signal;
  sigemptyset(&crash.sa_mask);
  crash.sa_flags = SA_RESETHAND;
  for (unsigned i = 0; i < OPSVIEW_COUNT(opsview_crash_signals); i++) {
    int sig = opsview_crash_signals[i];
    sigaction(sig, &crash, &opsview_previous_actions()[sig]);
  }
  return 0;
}

static inline int opsview_pending_signal(void) { return opsview_quit_signal; }

// The loop is done (quit, signal, error): stop the nudging and ignore quit signals, so that none
// interrupts the writes that restore the terminal.
static inline void opsview_hold_quit_signals(void) {
  opsview_quit_acknowledged = 1;
  for (unsigned i = 0; i < OPSVIEW_COUNT(opsview_quit_signals); i++) signal(opsview_quit_signals[i], SIG_IGN);
}

// The terminal is restored: give every signal back to whoever had it before.
static inline void opsview_restore_signal_handlers(void) {
  for (unsigned i = 0; i < OPSVIEW_COUNT(opsview_quit_signals); i++) {
    int sig = opsview_quit_signals[i];
    sigaction(sig, &opsview_previous_actions()[sig], NULL);
  }
  for (unsigned i = 0; i < OPSVIEW_COUNT(opsview_crash_signals); i++) {
    int sig = opsview_crash_signals[i];
    sigaction(sig, &opsview_previous_actions()[sig], NULL);
  }
}

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

#include <ncursesw/term.h>

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
