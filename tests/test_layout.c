/*
 * test_layout.c - the TUI's layout maths without a terminal: regions for each screen, the minimum
 * size, scrolling, and cropping text by display columns (Hangul takes two, never cut in half).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/layout.h"

/* 80 x 24 is the smallest terminal that is big enough. */
static void test_minimum_size(void **state)
{
    (void)state;
    assert_false(layout_too_small(80, 24));
    assert_true(layout_too_small(79, 24));
    assert_true(layout_too_small(80, 23));
    assert_true(layout_too_small(40, 10));
    assert_false(layout_too_small(200, 60));
}

/* The home screen's parts stay inside the terminal and do not overlap. */
static void test_home_split(void **state)
{
    (void)state;
    layout_home h;
    layout_home_split(100, 30, &h);
    assert_int_equal(h.title.y, 0);
    assert_int_equal(h.title.w, 100);
    assert_int_equal(h.footer.y, 29);
    assert_true(h.list.y > h.title.y);
    assert_true(h.list.y + h.list.h <= h.backend.y);
    assert_true(h.backend.y < h.footer.y);
    assert_true(h.list.x + h.list.w <= 100);
    layout_home_split(2, 2, &h);
    assert_true(h.list.w >= 0 && h.list.h >= 0);
}

/* The reader's text is at most LAYOUT_TEXT_MAX wide and leaves room for the title and keys. */
static void test_reader_split(void **state)
{
    (void)state;
    layout_reader r;
    layout_reader_split(80, 24, &r);
    assert_int_equal(r.body.w, 76);
    assert_int_equal(r.body.h, 20);
    assert_int_equal(r.footer.y, 23);
    layout_reader_split(250, 50, &r);
    assert_int_equal(r.body.w, LAYOUT_TEXT_MAX);
    assert_true(r.body.y + r.body.h <= r.footer.y);
}

/* A box is centred and shrunk to fit. */
static void test_center(void **state)
{
    (void)state;
    layout_rect outer = {0, 0, 100, 30};
    layout_rect r = layout_center(outer, 40, 10);
    assert_int_equal(r.x, 30);
    assert_int_equal(r.y, 10);
    r = layout_center(outer, 140, 50);
    assert_int_equal(r.x, 0);
    assert_int_equal(r.w, 100);
    assert_int_equal(r.h, 30);
}

/* Scrolling stops at both ends; a list follows its selection. */
static void test_scroll(void **state)
{
    (void)state;
    assert_int_equal(layout_scroll_clamp(-3, 100, 20), 0);
    assert_int_equal(layout_scroll_clamp(95, 100, 20), 80);
    assert_int_equal(layout_scroll_clamp(5, 10, 20), 0);
    assert_int_equal(layout_list_top(0, 0, 11, 5), 0);
    assert_int_equal(layout_list_top(7, 0, 11, 5), 3);
    assert_int_equal(layout_list_top(2, 3, 11, 5), 2);
    assert_int_equal(layout_list_top(10, 0, 11, 5), 6);
}

/* ASCII is cropped by characters; Hangul by two columns each, never cut in half. */
static void test_crop(void **state)
{
    (void)state;
    int used = -1;
    assert_int_equal(layout_crop("kitchen", 7, 4, &used), 4);
    assert_int_equal(used, 4);
    const char *ko = "주방장"; /* three syllables, three bytes and two columns each */
    assert_int_equal(layout_crop(ko, strlen(ko), 6, &used), 9);
    assert_int_equal(used, 6);
    assert_int_equal(layout_crop(ko, strlen(ko), 5, &used), 6);
    assert_int_equal(used, 4);
    assert_int_equal(layout_crop(ko, strlen(ko), 1, &used), 0);
    assert_int_equal(used, 0);
    assert_int_equal(layout_crop("a\xff" "b", 3, 10, &used), 3);
    assert_int_equal(used, 3);
}

/* Fitting pads to the exact width, also after cropping a wide character that did not fit. */
static void test_fit(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(layout_fit("cook", 6, out, sizeof out), 6);
    assert_string_equal(out, "cook  ");
    layout_fit("요리사", 5, out, sizeof out);
    assert_string_equal(out, "요리 ");
    layout_fit("a long line of text", 6, out, sizeof out);
    assert_string_equal(out, "a long");
    layout_fit("overflow", 20, out, 5);
    assert_string_equal(out, "over");
}

/* Search ignores ASCII case, finds Hangul as it is, and goes on from an offset. */
static void test_find(void **state)
{
    (void)state;
    assert_int_equal(layout_find("Ship the Kernel", 0, "kernel"), 9);
    assert_int_equal(layout_find("threadIdx.x + blockIdx.x", 0, "IDX"), 6);
    assert_int_equal(layout_find("threadIdx.x + blockIdx.x", 7, "idx"), 19);
    assert_int_equal(layout_find("보조 요리사와 요리", 0, "요리"), 7);
    assert_int_equal(layout_find("보조 요리사와 요리", 8, "요리"), 20);
    assert_int_equal(layout_find("cook", 0, "cooks"), -1);
    assert_int_equal(layout_find("cook", 0, ""), -1);
    assert_int_equal(layout_find("cook", 9, "c"), -1);
}

/* The home screen's picture goes under the lessons when the rows allow, else beside them, else
   nowhere; it always stays inside the list's frame. */
static void test_home_art(void **state)
{
    (void)state;
    layout_home h;
    layout_rect art;
    layout_home_split(100, 30, &h); /* inner 94 x 22 */
    assert_int_equal(layout_home_art(&h, 11, 55, 42, 6, 3, &art), 1);
    assert_true(art.y >= h.list.y + 1 + 11 + 1); /* under the 11 lessons, a blank row between */
    assert_true(art.y + art.h <= h.list.y + h.list.h - 1);
    assert_int_equal(art.x, h.list.x + 1 + (94 - 42) / 2);
    assert_int_equal(layout_home_art(&h, 11, 40, 42, 12, 3, &art), 1); /* too tall to go under: beside */
    assert_true(art.x >= h.list.x + 1 + 40 + 2);
    assert_true(art.x + art.w <= h.list.x + h.list.w - 1);
    assert_int_equal(layout_home_art(&h, 11, 55, 42, 12, 3, &art), 0); /* nor beside */
    layout_home_split(80, 24, &h);
    assert_int_equal(layout_home_art(&h, 11, 55, 42, 6, 3, &art), 0);
    assert_int_equal(layout_home_art(&h, 0, 0, 0, 6, 3, &art), 0); /* no picture */
}

/* The floor plan's boxes: 132 stations fit at 120 x 40's floor with boxes of at least 6 x 3, every
   box inside the area; 2 stations get the largest boxes; at 80 x 24 they do not all fit, and the
   rows that do are said; nothing to place is no grid. */
static void test_box_grid(void **state)
{
    (void)state;
    layout_boxes g;
    assert_int_equal(layout_box_grid(132, 118, 30, 6, 3, 16, 5, &g), 1);
    assert_true(g.cols * g.rows >= 132 && (g.cols - 1) * g.rows < 132 + g.rows);
    assert_true(g.cols * g.box_w <= 118 && g.rows * g.box_h <= 30);
    assert_true(g.box_w >= 6 && g.box_h >= 3);
    assert_int_equal(g.rows_shown, g.rows);
    assert_int_equal(layout_box_grid(2, 118, 30, 6, 3, 16, 5, &g), 1);
    assert_int_equal(g.box_w, 16);
    assert_int_equal(g.box_h, 5);
    assert_int_equal(g.cols, 2);
    assert_int_equal(layout_box_grid(132, 78, 12, 6, 3, 16, 5, &g), 0);
    assert_int_equal(g.box_w, 6);
    assert_int_equal(g.cols, 13);
    assert_int_equal(g.rows, 11);
    assert_int_equal(g.rows_shown, 4);
    assert_int_equal(layout_box_grid(0, 78, 12, 6, 3, 16, 5, &g), 1);
    assert_int_equal(g.cols, 0);
    assert_int_equal(layout_box_grid(5, 4, 12, 6, 3, 16, 5, &g), 0);
    assert_int_equal(g.rows_shown, 0);
    assert_int_equal(layout_box_grid(5, 10, 15, 6, 3, 16, 5, &g), 1); /* narrower than the widest box */
    assert_int_equal(g.cols, 1);
    assert_int_equal(g.box_w, 10);
    assert_int_equal(g.box_h, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_size), cmocka_unit_test(test_home_split), cmocka_unit_test(test_reader_split),
        cmocka_unit_test(test_center),       cmocka_unit_test(test_scroll),     cmocka_unit_test(test_crop),
        cmocka_unit_test(test_fit),          cmocka_unit_test(test_find),
        cmocka_unit_test(test_home_art),     cmocka_unit_test(test_box_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
