#define _POSIX_C_SOURCE 200809L
/* A file truncated while it is mapped (issue 18, item 2): reported as
 * changed, never a SIGBUS. The hook truncates between mapping and reading,
 * which is the race made deterministic. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "mc_validate.h"

#define BIG (4u << 20)

static char *make_file(size_t size)
{
    char *path = strdup("/tmp/mc_guard_XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)size), 0);
    static const char aem[] = "AEM\001";
    cr_assert_eq(write(fd, aem, 4), 4);
    close(fd);
    return path;
}

static void truncate_it(void *arg)
{
    cr_assert_eq(truncate(arg, 100), 0);
}

static void expect_changed(mc_status st, mc_result *r, const char *why)
{
    cr_expect_eq(st, MC_ERR_IO);
    cr_assert_not_null(r);
    cr_assert_eq(r->issue_count, 1);
    cr_expect_eq(r->issues[0].code, MC_IO_READ_FAILED);
    cr_expect_eq(r->size, BIG);
    char want[200];
    snprintf(want, sizeof want, "file changed while it was being read (%s; %u bytes when opened)", why, BIG);
    cr_expect_str_eq(r->issues[0].instances[0].message, want);
}

Test(guard, truncated_under_the_mapping_is_reported_not_a_crash)
{
    char *path = make_file(BIG);
    mc_result *r = NULL;
    /* the digest reads every page: the pages past byte 100 are gone */
    mc_status st = mc_validate_path_hooked(path, NULL, &r, truncate_it, path);
    expect_changed(st, r, "truncated under the mapping");
    mc_result_free(r);
    /* the run goes on: the next file is read as usual */
    cr_assert_eq(truncate(path, 4), 0);
    cr_expect_eq(mc_validate_path(path, NULL, &r), MC_OK);
    cr_assert_not_null(r);
    cr_expect_not_null(mc_result_find(r, MC_AEM_TRUNCATED));
    mc_result_free(r);
    unlink(path);
    free(path);
}

Test(guard, changed_without_a_fault_is_reported_too)
{
    char *path = make_file(BIG);
    mc_options o;
    mc_options_init(&o);
    o.skip_sha256 = 1; /* the header alone is read: no page past the cut */
    mc_result *r = NULL;
    mc_status st = mc_validate_path_hooked(path, &o, &r, truncate_it, path);
    expect_changed(st, r, "new size or modification time");
    mc_result_free(r);
    unlink(path);
    free(path);
}

static void bus_error_elsewhere(void *arg)
{
    (void)arg;
    raise(SIGBUS); /* not inside a guarded mapping: not ours to survive */
}

static void earlier_handler(int sig)
{
    (void)sig;
    _exit(42);
}

Test(guard, other_bus_errors_go_to_the_earlier_handler, .exit_code = 42)
{
    signal(SIGBUS, earlier_handler); /* the host program's own, before ours */
    char *path = make_file(BIG);
    mc_result *r = NULL;
    mc_validate_path_hooked(path, NULL, &r, bus_error_elsewhere, NULL);
    unlink(path);
    free(path);
}

Test(guard, without_a_free_slot_the_file_is_read_instead)
{
    static char taken[1024];
    int slots[1024], n = 0;
    for (int s; n < 1024 && (s = mc_guard_map(&taken[n], 1)) >= 0;) slots[n++] = s;
    cr_assert_eq(n, 1024, "every slot taken");
    char *path = make_file(BIG);
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_path(path, NULL, &r), MC_OK);
    cr_assert_not_null(r);
    cr_expect_eq(r->size, BIG);
    cr_expect(r->hashed);
    cr_expect_eq(r->format, MC_FORMAT_AEM);
    mc_result_free(r);
    /* and a file shorter than when it was opened is still reported */
    r = NULL;
    cr_expect_eq(mc_validate_path_hooked(path, NULL, &r, truncate_it, path), MC_ERR_IO);
    for (int i = 0; i < n; i++) cr_expect_eq(mc_guard_unmap(slots[i]), 0);
    cr_assert_not_null(r);
    cr_expect_eq(r->issues[0].code, MC_IO_READ_FAILED);
    mc_result_free(r);
    unlink(path);
    free(path);
}

/* Files up to 64 KiB are read, not mapped (issue 16): a cut there is a
 * short read, reported like a cut under the mapping. */
Test(guard, small_file_cut_while_read_is_reported)
{
    char *path = make_file(60000);
    mc_result *r = NULL;
    mc_status st = mc_validate_path_hooked(path, NULL, &r, truncate_it, path);
    cr_expect_eq(st, MC_ERR_IO);
    cr_assert_not_null(r);
    cr_assert_eq(r->issue_count, 1);
    cr_expect_eq(r->issues[0].code, MC_IO_READ_FAILED);
    cr_expect_eq(r->size, 60000);
    cr_expect_str_eq(r->issues[0].instances[0].message,
                     "file changed while it was being read (shorter when read; 60000 bytes when opened)");
    mc_result_free(r);
    unlink(path);
    free(path);
}

/* The code and message of the one issue of path's listed result. */
static void expect_io(const char *path, mc_code code, const char *msg)
{
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_listed_path(path, NULL, &r), MC_ERR_IO);
    cr_assert_not_null(r);
    cr_assert_eq(r->issue_count, 1);
    cr_expect_eq(r->issues[0].code, code);
    cr_expect_str_eq(r->issues[0].instances[0].message, msg);
    mc_result_free(r);
}

/* mc_validate_listed_path trusts a listing for the stat it skips, not for
 * what it opens: each kind of path gets mc_validate_path's result. */
Test(guard, listed_path_reports_what_the_path_is_now)
{
    char dir[] = "/tmp/mc_listed_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char file[64], big[64], link[64], fifo[64], fifo_link[64], gone[64];
    snprintf(file, sizeof file, "%s/small.aem", dir);
    snprintf(big, sizeof big, "%s/big.aem", dir);
    snprintf(link, sizeof link, "%s/link.aem", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(fifo_link, sizeof fifo_link, "%s/fifo_link", dir);
    snprintf(gone, sizeof gone, "%s/gone.aem", dir);
    char *small_tmp = make_file(100), *big_tmp = make_file(BIG);
    cr_assert_eq(rename(small_tmp, file), 0);
    cr_assert_eq(rename(big_tmp, big), 0);
    cr_assert_eq(symlink(file, link), 0);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    cr_assert_eq(symlink(fifo, fifo_link), 0);

    /* read (small), mapped (large), through a link: as mc_validate_path */
    const char *same[] = {file, big, link};
    for (size_t i = 0; i < 3; i++) {
        mc_result *a = NULL, *b = NULL;
        cr_expect_eq(mc_validate_listed_path(same[i], NULL, &a), MC_OK);
        cr_expect_eq(mc_validate_path(same[i], NULL, &b), MC_OK);
        cr_assert(a && b);
        cr_expect_eq(a->format, MC_FORMAT_AEM);
        cr_expect_eq(a->size, b->size);
        cr_assert_eq(a->issue_count, b->issue_count);
        cr_expect_gt(a->issue_count, 0);
        for (size_t k = 0; k < a->issue_count; k++) {
            cr_expect_eq(a->issues[k].code, b->issues[k].code);
            cr_expect_eq(a->issues[k].count, b->issues[k].count);
            cr_expect_eq(a->issues[k].first_offset, b->issues[k].first_offset);
        }
        cr_expect(a->hashed && b->hashed);
        cr_expect_eq(memcmp(a->sha256, b->sha256, 32), 0);
        mc_result_free(a);
        mc_result_free(b);
    }
    /* a FIFO in place of the file: reported at once, never waited on,
     * directly or through a link */
    expect_io(fifo, MC_IO_NOT_REGULAR, "cannot validate a FIFO: not a regular file");
    expect_io(fifo_link, MC_IO_NOT_REGULAR, "cannot validate a FIFO: not a regular file");
    expect_io(dir, MC_IO_NOT_REGULAR, "is a directory: Is a directory");
    expect_io(gone, MC_IO_OPEN_FAILED, "cannot open: No such file or directory");
    mc_result *r = NULL;
    cr_expect_eq(mc_validate_listed_path(NULL, NULL, &r), MC_ERR_INVALID_ARG);

    const char *all[] = {file, big, link, fifo, fifo_link};
    for (size_t i = 0; i < 5; i++) unlink(all[i]);
    rmdir(dir);
    free(small_tmp);
    free(big_tmp);
}
