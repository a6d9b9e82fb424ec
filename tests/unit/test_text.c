/* Bytes from outside shown in JSON and on a terminal (issue 18, items 4, 7). */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mc_check.h"

static void expect_escape(const char *in, const char *want, int want_escaped)
{
    int escaped = -1;
    char *got = mc_utf8_escape(in, &escaped);
    cr_assert_not_null(got);
    cr_expect_str_eq(got, want);
    cr_expect_eq(escaped, want_escaped, "%s", in);
    free(got);
}

Test(text, utf8_names_are_kept_exactly)
{
    expect_escape("plain/100%.aem", "plain/100%.aem", 0);
    expect_escape("caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80", "caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80", 0);
    expect_escape("new\nline", "new\nline", 0); /* cJSON writes \n: exact and valid */
}

Test(text, invalid_bytes_and_percent_are_percent_encoded)
{
    expect_escape("caf\xe9 100%", "caf%E9 100%25", 1);
    expect_escape("\xc0\xaf", "%C0%AF", 1);                 /* overlong '/' */
    expect_escape("\xed\xa0\x80", "%ED%A0%80", 1);           /* surrogate U+D800 */
    expect_escape("\xf4\x90\x80\x80", "%F4%90%80%80", 1);    /* above U+10FFFF */
    expect_escape("\xe2\x82", "%E2%82", 1);                  /* cut sequence */
    expect_escape("ok\xc3\xa9\xff", "ok\xc3\xa9%FF", 1);     /* valid parts stay */
    cr_expect(mc_utf8_valid("\xc3\xa9"));
    cr_expect_not(mc_utf8_valid("\xff"));
}

static void expect_quote(const char *in, const char *want)
{
    char *got = mc_text_quote(in);
    cr_assert_not_null(got);
    cr_expect_str_eq(got, want);
    free(got);
}

Test(text, terminal_quoting_like_git)
{
    expect_quote("dir/a b.aem", "dir/a b.aem");
    /* a quote or a backslash alone is quoted too: the name '"evil\x1B[2J.aem"'
     * must not print as the quoted form of a name holding a real ESC */
    expect_quote("back\\slash\"", "\"back\\\\slash\\\"\"");
    expect_quote("\"evil\\x1B[2J.aem\"", "\"\\\"evil\\\\x1B[2J.aem\\\"\"");
    expect_quote("evil\x1b[2J.aem", "\"evil\\x1B[2J.aem\"");
    expect_quote("new\nline\t\"q\"\\", "\"new\\nline\\t\\\"q\\\"\\\\\"");
    expect_quote("\x1b[2J", "\"\\x1B[2J\"");
    expect_quote("c1\xc2\x9b", "\"c1\\xC2\\x9B\"");       /* CSI as a C1 control */
    expect_quote("caf\xe9", "\"caf\\xE9\"");
    expect_quote("caf\xc3\xa9", "caf\xc3\xa9");
}

Test(text, bidi_controls_are_escaped_as_code_points)
{
    /* U+202E would show "gpj.exe" as "exe.jpg"; U+2066 to U+2069 isolate */
    expect_quote("a\xe2\x80\xaegpj.aem", "\"a\\u202Egpj.aem\"");
    expect_quote("\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", "\"\\u202A\\u2066\\u2069\"");
    /* the neighbours of the two ranges are kept: U+2029, U+2065, U+206A */
    expect_quote("\xe2\x80\xa9\xe2\x81\xa5\xe2\x81\xaa", "\xe2\x80\xa9\xe2\x81\xa5\xe2\x81\xaa");
    /* cut sequences stay bytes */
    expect_quote("\xe2\x80", "\"\\xE2\\x80\"");
    char out[32];
    cr_expect_eq(mc_text_clean(out, sizeof out, "r\xe2\x80\xae" "b"), 8);
    cr_expect_str_eq(out, "r\\u202Eb");
    /* never cut inside the escape */
    cr_expect_eq(mc_text_clean(out, 6, "r\xe2\x80\xae" "b"), 1);
}

Test(text, messages_keep_no_control_byte)
{
    char out[16];
    cr_expect_eq(mc_text_clean(out, sizeof out, "a\x1b" "b\xff"), 10);
    cr_expect_str_eq(out, "a\\x1Bb\\xFF");
    /* cut before what does not fit, never inside an escape */
    cr_expect_eq(mc_text_clean(out, 6, "ab\x01"), 2);
    cr_expect_str_eq(out, "ab");
}
