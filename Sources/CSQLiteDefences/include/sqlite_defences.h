#ifndef MOMLINT_SQLITE_DEFENCES_H
#define MOMLINT_SQLITE_DEFENCES_H

#include <stdint.h>

/// SQLite's settings for a database file someone else made, on the connection `db` (an
/// `sqlite3 *`, passed untyped so that this module and GRDB's need not both declare SQLite's
/// types). Swift cannot call `sqlite3_db_config`, which is variadic. Sets, in order:
/// SQLITE_DBCONFIG_DEFENSIVE on, SQLITE_DBCONFIG_TRUSTED_SCHEMA off, SQLITE_DBCONFIG_ENABLE_VIEW
/// off, SQLITE_DBCONFIG_ENABLE_TRIGGER off, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION off, then the
/// `sqlite3_limit`s below. Returns 0, or the SQLite result code of the first setting that
/// failed (a setting this SQLite does not know fails: the caller refuses to read then).
int momlint_sqlite_defend(void *db, int max_value_bytes, int max_sql_bytes);

/// `sqlite3_libversion()`, for a message.
const char *momlint_sqlite_version(void);

/// A time budget for everything SQLite does on one connection: a progress handler, called
/// every 1,000 virtual-machine instructions, interrupts the statement running once the
/// deadline has passed (the statement then fails with SQLITE_INTERRUPT).
typedef struct momlint_sqlite_budget momlint_sqlite_budget;

/// A budget of `seconds` from now, installed on `db` when it is not NULL; NULL when memory runs
/// out. Free it with `momlint_sqlite_budget_free` after every connection it is attached to is
/// closed.
momlint_sqlite_budget *momlint_sqlite_budget_install(void *db, double seconds);

/// Attaches an existing budget to one more connection: the deadline is shared.
void momlint_sqlite_budget_attach(void *db, momlint_sqlite_budget *budget);

/// Starts the budget again: `seconds` from now.
void momlint_sqlite_budget_restart(momlint_sqlite_budget *budget, double seconds);

/// 1 once the budget has interrupted a statement, else 0.
int momlint_sqlite_budget_expired(const momlint_sqlite_budget *budget);

void momlint_sqlite_budget_free(momlint_sqlite_budget *budget);

/// Remembers a file or folder (`path`, copied) to remove if SIGINT, SIGTERM or SIGHUP ends the
/// process: the handler unlinks each file, removes each folder (folders last), restores the
/// default action and raises the signal again, so the exit status still says which signal
/// it was. Paths registered first are removed last. Returns an id for
/// `momlint_forget_on_signal`, or -1 when the table (64 paths) is full.
int momlint_remove_on_signal(const char *path, int is_folder);

/// Forgets a path registered by `momlint_remove_on_signal` (it has been removed).
void momlint_forget_on_signal(int id);

#endif
