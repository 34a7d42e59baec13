#include "sqlite_defences.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

int momlint_sqlite_defend(void *handle, int max_value_bytes, int max_sql_bytes) {
    sqlite3 *db = handle;
    // https://www.sqlite.org/c3ref/c_dbconfig_defensive.html
    const int switches[][2] = {
        {SQLITE_DBCONFIG_DEFENSIVE, 1},
        {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
        {SQLITE_DBCONFIG_ENABLE_VIEW, 0},
        {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0},
        {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0},
    };
    for (unsigned index = 0; index < sizeof switches / sizeof switches[0]; index++) {
        int now = -1;
        int code = sqlite3_db_config(db, switches[index][0], switches[index][1], &now);
        if (code != SQLITE_OK) {
            return code;
        }
        if (now != switches[index][1]) {
            return SQLITE_ERROR;
        }
    }
    // https://www.sqlite.org/c3ref/limit.html: each call can only lower a limit.
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, max_value_bytes);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, max_sql_bytes);
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 10);
    sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 8);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
    return SQLITE_OK;
}

const char *momlint_sqlite_version(void) {
    return sqlite3_libversion();
}

struct momlint_sqlite_budget {
    struct timespec deadline;
    int expired;
};

static int budget_progress(void *context) {
    struct momlint_sqlite_budget *budget = context;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > budget->deadline.tv_sec
        || (now.tv_sec == budget->deadline.tv_sec && now.tv_nsec >= budget->deadline.tv_nsec)) {
        budget->expired = 1;
        return 1;  // non-zero: "the operation is interrupted"
    }
    return 0;
}

void momlint_sqlite_budget_restart(momlint_sqlite_budget *budget, double seconds) {
    clock_gettime(CLOCK_MONOTONIC, &budget->deadline);
    long long whole = (long long)seconds;
    long long nanoseconds = (long long)((seconds - (double)whole) * 1e9) + budget->deadline.tv_nsec;
    budget->deadline.tv_sec += (time_t)(whole + nanoseconds / 1000000000LL);
    budget->deadline.tv_nsec = (long)(nanoseconds % 1000000000LL);
    budget->expired = 0;
}

momlint_sqlite_budget *momlint_sqlite_budget_install(void *handle, double seconds) {
    struct momlint_sqlite_budget *budget = calloc(1, sizeof *budget);
    if (budget == NULL) {
        return NULL;
    }
    momlint_sqlite_budget_restart(budget, seconds);
    momlint_sqlite_budget_attach(handle, budget);
    return budget;
}

void momlint_sqlite_budget_attach(void *handle, momlint_sqlite_budget *budget) {
    if (handle != NULL) {
        sqlite3_progress_handler((sqlite3 *)handle, 1000, budget_progress, budget);
    }
}

int momlint_sqlite_budget_expired(const momlint_sqlite_budget *budget) {
    return budget != NULL && budget->expired;
}

void momlint_sqlite_budget_free(momlint_sqlite_budget *budget) {
    free(budget);
}

// Removal on a signal: fixed-size tables written before the handler is installed and read in
// it, so the handler makes only async-signal-safe calls (unlink, rmdir, sigaction, raise).
#define REMOVAL_SLOTS 64
#define REMOVAL_PATH_BYTES 4096
static char removal_paths[REMOVAL_SLOTS][REMOVAL_PATH_BYTES];
static volatile sig_atomic_t removal_kinds[REMOVAL_SLOTS];  // 0 empty, 1 file, 2 folder
static volatile sig_atomic_t removal_handlers_installed = 0;

static void remove_and_reraise(int signal_number) {
    for (int pass = 1; pass <= 2; pass++) {
        for (int index = REMOVAL_SLOTS - 1; index >= 0; index--) {
            if (removal_kinds[index] != pass) {
                continue;
            }
            if (pass == 1) {
                (void)unlink(removal_paths[index]);
            } else {
                (void)rmdir(removal_paths[index]);
            }
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    (void)sigaction(signal_number, &action, NULL);
    (void)raise(signal_number);
}

int momlint_remove_on_signal(const char *path, int is_folder) {
    if (strlen(path) >= REMOVAL_PATH_BYTES) {
        return -1;
    }
    for (int index = 0; index < REMOVAL_SLOTS; index++) {
        if (removal_kinds[index] != 0) {
            continue;
        }
        strcpy(removal_paths[index], path);
        removal_kinds[index] = is_folder ? 2 : 1;
        if (!removal_handlers_installed) {
            removal_handlers_installed = 1;
            const int signals[] = {SIGINT, SIGTERM, SIGHUP};
            for (unsigned number = 0; number < sizeof signals / sizeof signals[0]; number++) {
                struct sigaction current;
                // A handler someone else installed (conformance's) is left alone.
                if (sigaction(signals[number], NULL, &current) == 0 && current.sa_handler == SIG_DFL) {
                    struct sigaction action;
                    memset(&action, 0, sizeof action);
                    action.sa_handler = remove_and_reraise;
                    sigemptyset(&action.sa_mask);
                    (void)sigaction(signals[number], &action, NULL);
                }
            }
        }
        return index;
    }
    return -1;
}

void momlint_forget_on_signal(int id) {
    if (id >= 0 && id < REMOVAL_SLOTS) {
        removal_kinds[id] = 0;
    }
}
