// Signals and crash safety around the curses session. The state lives in signals.c, once for the
// whole program (`static` in a header would give one copy per Swift file that called it).
#ifndef OPSVIEW_SIGNALS_H
#define OPSVIEW_SIGNALS_H

// Installs the handlers, remembering the previous ones; call before newterm so ncurses leaves
// SIGINT/SIGTERM/SIGTSTP to us. Returns 0 on success.
int opsview_install_signal_handlers(void);

// The quit signal that arrived (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
// SIGPIPE), or 0.
int opsview_pending_signal(void);

// Job control that arrived since the last call, and is now taken: 0 none, 1 a stop was asked
// (SIGTSTP: Ctrl-Z), 2 the process was continued (SIGCONT, e.g. after a
// `kill -STOP` it could not see).
int opsview_take_job_control(void);

// The same, without taking it.
int opsview_peek_job_control(void);

// Stops the process the way Ctrl-Z would (the terminal must be restored first); returns once it is
// continued.
void opsview_stop_self(void);

// The loop is done (quit, signal, error): stop the nudging and ignore quit signals, so that none
// interrupts the writes that restore the terminal.
void opsview_hold_quit_signals(void);

// The terminal is restored: give every signal back to whoever had it before.
void opsview_restore_signal_handlers(void);

// Whether curses owns the screen (a crash then calls endwin before dying).
void opsview_set_curses_active(int active);

// While curses owns the screen, stderr goes to a temporary file; `end` puts fd 2 back and replays it.
void opsview_stderr_capture_begin(void);
void opsview_stderr_capture_end(void);

// A line the crash handler writes to stderr once the terminal is restored (where the backtrace
// goes); copied, at most 1023 bytes. NULL or "" for none.
void opsview_set_crash_note(const char *note);

// A file to remove if the process ends before it is put in place (an export's temporary file):
// removed on SIGINT, SIGTERM, SIGHUP or SIGQUIT (then the signal's default action) and at exit.
// NULL forgets it. At most 4095 bytes.
void opsview_set_cleanup_path(const char *path);

#endif
