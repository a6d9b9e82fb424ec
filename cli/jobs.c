/*
 * -j: a fixed set of worker threads claims files in list order; the calling
 * thread delivers results in the same order. A window of 2 x workers result
 * slots keeps a worker from running ahead of delivery by more than that, so
 * one slow file holds back memory, never grows it.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "jobs.h"

#define MAX_WORKERS 1024

typedef struct slot {
    mc_result *result;
    mc_status status;
    int done;
} slot;

typedef struct pool {
    const char *const *paths;
    size_t count;
    const mc_options *const *options;
    slot *slots;
    size_t window;
    size_t next;      /* the next index to claim */
    size_t delivered; /* every index below has been delivered */
    pthread_mutex_t mu;
    pthread_cond_t ready; /* a slot was filled */
    pthread_cond_t room;  /* delivery moved on: the window slid */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next < p->count && p->next >= p->delivered + p->window)
            pthread_cond_wait(&p->room, &p->mu);
        if (p->next >= p->count) break;
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        mc_result *r = NULL;
        mc_status st = mc_validate_path(p->paths[i], p->options[i], &r);
        pthread_mutex_lock(&p->mu);
        slot *s = &p->slots[i % p->window];
        s->result = r;
        s->status = st;
        s->done = 1;
        pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void run_inline(const char *const *paths, size_t count, const mc_options *const *options,
                       mc_jobs_deliver deliver, void *ctx)
{
    for (size_t i = 0; i < count; i++) {
        mc_result *r = NULL;
        mc_status st = mc_validate_path(paths[i], options[i], &r);
        deliver(ctx, i, r, st);
        mc_result_free(r);
    }
}

static void deliver_in_order(pool *p, mc_jobs_deliver deliver, void *ctx)
{
    for (size_t i = 0; i < p->count; i++) {
        slot *s = &p->slots[i % p->window];
        pthread_mutex_lock(&p->mu);
        while (!s->done) pthread_cond_wait(&p->ready, &p->mu);
        mc_result *r = s->result;
        mc_status st = s->status;
        s->done = 0;
        pthread_mutex_unlock(&p->mu);
        deliver(ctx, i, r, st);
        mc_result_free(r);
        pthread_mutex_lock(&p->mu);
        p->delivered = i + 1;
        pthread_cond_broadcast(&p->room);
        pthread_mutex_unlock(&p->mu);
    }
}

void mc_jobs_validate(const char *const *paths, size_t count, const mc_options *const *options,
                      unsigned workers, mc_jobs_deliver deliver, void *ctx)
{
    if (workers > MAX_WORKERS) workers = MAX_WORKERS;
    if (workers > count) workers = (unsigned)count;
    pool p = {.paths = paths, .count = count, .options = options, .window = 2u * workers};
    pthread_t threads[MAX_WORKERS];
    unsigned started = 0;
    if (workers > 1 && (p.slots = calloc(p.window, sizeof *p.slots)) != NULL) {
        pthread_mutex_init(&p.mu, NULL);
        pthread_cond_init(&p.ready, NULL);
        pthread_cond_init(&p.room, NULL);
        while (started < workers && pthread_create(&threads[started], NULL, worker, &p) == 0)
            started++;
    }
    if (started > 0) {
        /* fewer threads than asked is still correct: they share the list */
        deliver_in_order(&p, deliver, ctx);
        for (unsigned t = 0; t < started; t++) pthread_join(threads[t], NULL);
    } else {
        run_inline(paths, count, options, deliver, ctx);
    }
    if (p.slots) {
        pthread_cond_destroy(&p.room);
        pthread_cond_destroy(&p.ready);
        pthread_mutex_destroy(&p.mu);
        free(p.slots);
    }
}

unsigned mc_jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}
