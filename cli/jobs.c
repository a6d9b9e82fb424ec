/*
 * -j: worker threads and the calling thread claim files in list order; the
 * calling thread delivers results in the same order. A window of result
 * slots keeps a worker from running ahead of delivery by more than that, so
 * one slow file holds back memory, never grows it: at most `workers` files
 * are being read and at most `window` results (issues only, no file data)
 * wait for delivery.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "jobs.h"

#define MAX_WORKERS 1024

/* The window: 2 slots a worker, and never fewer than 256. With small files
 * a narrow window made the threads take turns: a thread that found it full
 * (or the next result still in progress) slept and was woken per file, and
 * on 10,000 small files -j 2 switched context 7,800 times and cost 30% more
 * CPU than -j 1; with 256 slots, 1,100 times and the same CPU (issue 16).
 * A waiting result holds only its issues (at most max_instances of each
 * code), never the file's bytes. */
#define MIN_WINDOW 256u

typedef struct slot {
    mc_result *result;
    mc_status status;
    int done;
} slot;

typedef struct pool {
    const char *const *paths;
    const unsigned char *listed;
    size_t count;
    const mc_options *const *options;
    slot *slots;
    size_t window;
    size_t next;      /* the next index to claim */
    size_t delivered; /* every index below has been delivered */
    bool deliverer_waiting;
    unsigned workers_waiting;
    pthread_mutex_t mu;
    pthread_cond_t ready; /* a slot was filled */
    pthread_cond_t room;  /* delivery moved on: the window slid */
} pool;

static mc_status validate_one(const char *const *paths, const unsigned char *listed, size_t i,
                              const mc_options *options, mc_result **r)
{
    return listed && listed[i] ? mc_validate_listed_path(paths[i], options, r)
                               : mc_validate_path(paths[i], options, r);
}

/* Claims the next file if the window has room for it, validates it with
 * the lock released and files its result. Returns false when there was
 * nothing to claim. Called with the lock held. */
static bool work_one(pool *p)
{
    if (p->next >= p->count || p->next >= p->delivered + p->window) return false;
    size_t i = p->next++;
    pthread_mutex_unlock(&p->mu);
    mc_result *r = NULL;
    mc_status st = validate_one(p->paths, p->listed, i, p->options[i], &r);
    pthread_mutex_lock(&p->mu);
    slot *s = &p->slots[i % p->window];
    s->result = r;
    s->status = st;
    s->done = 1;
    if (p->deliverer_waiting) pthread_cond_signal(&p->ready);
    return true;
}

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    while (p->next < p->count) {
        if (work_one(p)) continue;
        p->workers_waiting++;
        pthread_cond_wait(&p->room, &p->mu);
        p->workers_waiting--;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The calling thread delivers in list order and, rather than sleep while
 * the next result is not in, validates a file itself: -j N runs N threads
 * in all, and small files cost no wake-up per file. */
static void deliver_in_order(pool *p, mc_jobs_deliver deliver, void *ctx)
{
    pthread_mutex_lock(&p->mu);
    for (size_t i = 0; i < p->count; i++) {
        slot *s = &p->slots[i % p->window];
        while (!s->done) {
            if (work_one(p)) continue;
            p->deliverer_waiting = true;
            pthread_cond_wait(&p->ready, &p->mu);
            p->deliverer_waiting = false;
        }
        mc_result *r = s->result;
        mc_status st = s->status;
        s->done = 0;
        p->delivered = i + 1;
        if (p->workers_waiting) pthread_cond_broadcast(&p->room);
        pthread_mutex_unlock(&p->mu);
        deliver(ctx, i, r, st);
        mc_result_free(r);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

static void run_inline(const char *const *paths, const unsigned char *listed, size_t count,
                       const mc_options *const *options, mc_jobs_deliver deliver, void *ctx)
{
    for (size_t i = 0; i < count; i++) {
        mc_result *r = NULL;
        mc_status st = validate_one(paths, listed, i, options[i], &r);
        deliver(ctx, i, r, st);
        mc_result_free(r);
    }
}

void mc_jobs_validate(const char *const *paths, const unsigned char *listed, size_t count,
                      const mc_options *const *options, unsigned workers,
                      mc_jobs_deliver deliver, void *ctx)
{
    if (workers > MAX_WORKERS) workers = MAX_WORKERS;
    if (workers > count) workers = (unsigned)count;
    pool p = {.paths = paths, .listed = listed, .count = count, .options = options,
              .window = 2u * workers > MIN_WINDOW ? 2u * workers : MIN_WINDOW};
    if (workers <= 1 || !(p.slots = calloc(p.window, sizeof *p.slots))) {
        run_inline(paths, listed, count, options, deliver, ctx);
        return;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.ready, NULL);
    pthread_cond_init(&p.room, NULL);
    /* the calling thread is the N-th worker; fewer threads than asked (or
     * none) is still correct, only slower */
    pthread_t threads[MAX_WORKERS];
    unsigned started = 0;
    while (started + 1 < workers && pthread_create(&threads[started], NULL, worker, &p) == 0)
        started++;
    deliver_in_order(&p, deliver, ctx);
    for (unsigned t = 0; t < started; t++) pthread_join(threads[t], NULL);
    pthread_cond_destroy(&p.room);
    pthread_cond_destroy(&p.ready);
    pthread_mutex_destroy(&p.mu);
    free(p.slots);
}

unsigned mc_jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}
