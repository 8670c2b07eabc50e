// See include/opsview_signals.h. ncurses is not async-signal-safe: handlers only note the signal
// and wake the input loop, which restores (or re-enters) the terminal itself. Only the crash handler
// calls endwin, as the process is dying anyway.
#define NCURSES_WIDECHAR 1
#include "opsview_signals.h"

#include <errno.h>
#include <fcntl.h>
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OPSVIEW_COUNT(array) (sizeof array / sizeof array[0])

static volatile sig_atomic_t quit_signal = 0;
static volatile sig_atomic_t quit_acknowledged = 0;
// 1: stop asked; 2: continued. Cleared by opsview_take_job_control.
static volatile sig_atomic_t job_control = 0;
static volatile sig_atomic_t curses_active = 0;
static int nudger_started = 0;
static int saved_stderr = -1;
static int captured_stderr = -1;
// A handler wakes the nudger by writing a byte: write() is async-signal-safe everywhere, unlike
// unnamed POSIX semaphores, which macOS does not implement.
static int wake_pipe[2] = {-1, -1};
static pthread_t loop_thread;
static struct sigaction previous_actions[NSIG];
static char cleanup_path[4096];
static volatile sig_atomic_t cleanup_armed = 0;
static int cleanup_installed = 0;
static char crash_note[1024];
static size_t crash_note_length = 0;

void opsview_set_crash_note(const char *note) {
  crash_note_length = 0;
  if (note == NULL) return;
  size_t n = strlen(note);
  if (n > sizeof crash_note - 1) n = sizeof crash_note - 1;
  memcpy(crash_note, note, n);
  crash_note_length = n;
}

// Signals whose default would end the process with the terminal still in curses mode (alternate
// screen, mouse tracking, no echo).
static const int quit_signals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                   SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};
// SIGTTIN/SIGTTOU keep their default (stop): a board started in the background waits for `fg`.
static const int job_signals[] = {SIGTSTP, SIGCONT};
static const int crash_signals[] = {SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP};

void opsview_stderr_capture_end(void) {
  if (saved_stderr < 0) return;
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stderr);
  saved_stderr = -1;
  int captured = captured_stderr;
  captured_stderr = -1;
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
void opsview_stderr_capture_begin(void) {
  if (saved_stderr >= 0) return;
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
  captured_stderr = captured;
  saved_stderr = saved;
  dup2(captured, STDERR_FILENO);
}

void opsview_set_curses_active(int active) { curses_active = active; }

static void wake_nudger(void) {
  char byte = 1;
  // Non-blocking: a full pipe already holds a wake-up.
  ssize_t written = write(wake_pipe[1], &byte, 1);
  (void)written;
}

static void on_quit_signal(int sig) {
  int saved_errno = errno;
  if (quit_signal == 0) quit_signal = sig;
  wake_nudger();
  errno = saved_errno;
}

static void on_job_signal(int sig) {
  int saved_errno = errno;
  job_control = sig == SIGCONT ? 2 : 1;
  wake_nudger();
  errno = saved_errno;
}

// A signal that lands just before the loop enters its blocking read would be noticed only at the next
// key. This thread keeps interrupting the loop thread until the loop has taken what arrived.
static void *nudger(void *unused) {
  (void)unused;
  // Leave process-directed signals to the loop thread (whose read they must interrupt); keep
  // SIGPROF and the fault signals, which the Swift runtime's backtracer uses to inspect threads.
  const int asynchronous[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT,
                              SIGTTIN, SIGTTOU, SIGCHLD, SIGALRM, SIGUSR1,  SIGUSR2, SIGPIPE};
  sigset_t blocked;
  sigemptyset(&blocked);
  for (unsigned i = 0; i < OPSVIEW_COUNT(asynchronous); i++) sigaddset(&blocked, asynchronous[i]);
  pthread_sigmask(SIG_BLOCK, &blocked, NULL);
  struct timespec pause = {0, 50 * 1000 * 1000};
  for (;;) {
    char drained[64];
    while (read(wake_pipe[0], drained, sizeof drained) < 0 && errno == EINTR) {
    }
    for (;;) {
      int quit = !quit_acknowledged && quit_signal != 0;
      int job = job_control != 0;
      if (!quit && !job) break;
      // SIGWINCH interrupts the blocking read without ending anything (ncurses resizes on it).
      pthread_kill(loop_thread, quit ? quit_signal : SIGWINCH);
      nanosleep(&pause, NULL);
    }
  }
  return NULL;
}

// A Swift trap (SIGILL/SIGTRAP), crash or abort: put the terminal back, show what went to stderr,
// then let the previous handler (the Swift runtime's backtracer, or the default) see the signal.
static void on_crash_signal(int sig) {
  if (curses_active) {
    curses_active = 0;
    endwin();  // not async-signal-safe, but the process is dying and a broken terminal is worse
  }
  opsview_stderr_capture_end();
  if (crash_note_length > 0) {
    ssize_t ignored = write(STDERR_FILENO, crash_note, crash_note_length);
    (void)ignored;
  }
  sigaction(sig, &previous_actions[sig], NULL);
  // Delivered now, not when this handler returns (the signal is blocked while it runs).
  sigset_t this_signal;
  sigemptyset(&this_signal);
  sigaddset(&this_signal, sig);
  pthread_sigmask(SIG_UNBLOCK, &this_signal, NULL);
  raise(sig);
  // The previous handler returned (the Swift backtracer does, expecting a fault to recur; a signal
  // sent by `kill` does not): die of it as the default would.
  signal(sig, SIG_DFL);
  raise(sig);
}

static void remove_cleanup_path(void) {
  if (cleanup_armed) {
    cleanup_armed = 0;
    unlink(cleanup_path);
  }
}

static void on_cleanup_signal(int sig) {
  remove_cleanup_path();
  signal(sig, SIG_DFL);
  raise(sig);
}

void opsview_set_cleanup_path(const char *path) {
  cleanup_armed = 0;
  if (path == NULL) return;
  size_t n = strlen(path);
  if (n > sizeof cleanup_path - 1) return;
  memcpy(cleanup_path, path, n + 1);
  cleanup_armed = 1;
  if (cleanup_installed) return;
  cleanup_installed = 1;
  atexit(remove_cleanup_path);
  const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  for (unsigned i = 0; i < OPSVIEW_COUNT(signals); i++) {
    struct sigaction current;
    // Only where nothing else handles it (an ignored SIGHUP under nohup stays ignored).
    if (sigaction(signals[i], NULL, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_cleanup_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(signals[i], &action, NULL);
  }
}

static void install(const int *signals, unsigned count, void (*handler)(int), int flags) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = flags;
  for (unsigned i = 0; i < count; i++) sigaction(signals[i], &action, &previous_actions[signals[i]]);
}

// No SA_RESTART: a blocking read in wget_wch must return when a signal arrives.
int opsview_install_signal_handlers(void) {
  loop_thread = pthread_self();
  quit_signal = 0;
  quit_acknowledged = 0;
  job_control = 0;
  if (!nudger_started) {
    if (pipe(wake_pipe) != 0) return -1;
    for (int i = 0; i < 2; i++) fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
    fcntl(wake_pipe[1], F_SETFL, fcntl(wake_pipe[1], F_GETFL) | O_NONBLOCK);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int created = pthread_create(&thread, &attributes, nudger, NULL);
    pthread_attr_destroy(&attributes);
    if (created != 0) return -1;
    nudger_started = 1;
  }

  // A parent may have started us with these blocked (a child inherits its signal mask): unblock
  // them on the loop thread, or Ctrl-C, SIGTERM and resizes would never reach it.
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, SIGWINCH);
  for (unsigned i = 0; i < OPSVIEW_COUNT(quit_signals); i++) sigaddset(&unblock, quit_signals[i]);
  for (unsigned i = 0; i < OPSVIEW_COUNT(job_signals); i++) sigaddset(&unblock, job_signals[i]);
  pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);

  install(quit_signals, OPSVIEW_COUNT(quit_signals), on_quit_signal, 0);
  install(job_signals, OPSVIEW_COUNT(job_signals), on_job_signal, 0);
  install(crash_signals, OPSVIEW_COUNT(crash_signals), on_crash_signal, SA_RESETHAND);
  return 0;
}

int opsview_pending_signal(void) { return quit_signal; }

int opsview_peek_job_control(void) { return job_control; }

int opsview_take_job_control(void) {
  int taken = job_control;
  job_control = 0;
  return taken;
}

void opsview_stop_self(void) {
  // Stop as Ctrl-Z would with the default action, so the shell sees a stopped job.
  struct sigaction ours;
  struct sigaction standard;
  memset(&standard, 0, sizeof standard);
  standard.sa_handler = SIG_DFL;
  sigemptyset(&standard.sa_mask);
  sigaction(SIGTSTP, &standard, &ours);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, SIGTSTP);
  pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
  raise(SIGTSTP);
  // Continued.
  sigaction(SIGTSTP, &ours, NULL);
}

void opsview_hold_quit_signals(void) {
  quit_acknowledged = 1;
  for (unsigned i = 0; i < OPSVIEW_COUNT(quit_signals); i++) signal(quit_signals[i], SIG_IGN);
}

void opsview_restore_signal_handlers(void) {
  for (unsigned i = 0; i < OPSVIEW_COUNT(quit_signals); i++) {
    sigaction(quit_signals[i], &previous_actions[quit_signals[i]], NULL);
  }
  for (unsigned i = 0; i < OPSVIEW_COUNT(job_signals); i++) {
    sigaction(job_signals[i], &previous_actions[job_signals[i]], NULL);
  }
  for (unsigned i = 0; i < OPSVIEW_COUNT(crash_signals); i++) {
    sigaction(crash_signals[i], &previous_actions[crash_signals[i]], NULL);
  }
}
