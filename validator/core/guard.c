/*
 * Guarded mappings. A file truncated by another process while it is mapped
 * (an exporter re-saving into a watched folder, a checkout in a second
 * terminal) turns a read of a page past its new end into SIGBUS, which kills
 * the process. A mapping registered here is guarded instead: a SIGBUS inside
 * it puts zero pages in place of the part that vanished (the read is retried
 * and sees zeros, which the validator handles like any bytes), and the slot
 * records the fault, so the caller reports the file as changed while it was
 * read and discards what it found.
 *
 * The one piece of process-wide state in the library, and why: a signal
 * handler reaches no caller's data, and the fault may happen on another
 * thread than the one that mapped (the SHA-256 thread reads the same
 * mapping). The table is fixed-size and lock-free (async-signal-safe); a
 * mapping that finds no free slot is not made: the caller reads the file
 * instead. The handler is installed once, on the first registration; a
 * SIGBUS outside every registered mapping goes to the handler that was there
 * before, or takes the default action (the process ends, as it would have).
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mc_validate.h"

#define GUARD_SLOTS 1024 /* -j accepts at most 1024 workers */
#define CLAIMED ((uintptr_t)1)

typedef struct guard_slot {
    _Atomic uintptr_t base; /* 0 free, CLAIMED being set up, else the mapping */
    _Atomic size_t size;
    _Atomic int faulted;
} guard_slot;

static guard_slot slots[GUARD_SLOTS];
static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static int install_failed;

static void pass_on(int sig, siginfo_t *info, void *uctx)
{
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) previous.sa_sigaction(sig, info, uctx);
        return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    /* the default action: the faulting access is retried and ends the
     * process with SIGBUS, exactly as without this handler */
    signal(SIGBUS, SIG_DFL);
}

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
    uintptr_t at = (uintptr_t)info->si_addr;
    /* BUS_ADRERR: a page of the file that no longer exists (not a signal
     * sent by kill, whose si_addr means nothing) */
    for (size_t i = 0; info->si_code == BUS_ADRERR && i < GUARD_SLOTS; i++) {
        uintptr_t base = atomic_load(&slots[i].base);
        size_t size = atomic_load(&slots[i].size);
        if (base <= CLAIMED || at < base || at - base >= size) continue;
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t from = at & ~(page - 1);
        /* zero pages from the faulting one to the end: no second fault */
        void *z = mmap((void *)from, base + size - from, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        atomic_store(&slots[i].faulted, 1);
        if (z != MAP_FAILED) return;
        break;
    }
    pass_on(sig, info, uctx);
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    install_failed = sigaction(SIGBUS, &sa, &previous) != 0;
}

int mc_guard_map(void *base, size_t size)
{
    if (pthread_once(&installed, install) != 0 || install_failed) return -1;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t expected = 0;
        if (!atomic_compare_exchange_strong(&slots[i].base, &expected, CLAIMED)) continue;
        atomic_store(&slots[i].size, size);
        atomic_store(&slots[i].faulted, 0);
        atomic_store(&slots[i].base, (uintptr_t)base);
        return i;
    }
    return -1;
}

int mc_guard_unmap(int slot)
{
    int faulted = atomic_load(&slots[slot].faulted);
    atomic_store(&slots[slot].size, 0);
    atomic_store(&slots[slot].base, 0);
    return faulted;
}
