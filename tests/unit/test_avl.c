// SPDX-License-Identifier: GPL-2.0-or-later
/* The core's intrusive AVL tree (core/avl.h), which holds the TCP
 * reassembly's out-of-order segments (issue 33 item 6): after adds and
 * removes in orders that defeat a plain search tree (ascending, descending,
 * zigzag, random, a window sliding as the reassembly's does), the nodes are
 * in key order both ways from the first and the last the tree keeps, every
 * node's height and balance are right, parent links agree, and the height
 * stays within the AVL bound. */
#include <stdint.h>

#include "avl.h"
#include "check.h"

#define N 2048

struct item {
	struct avl_node node;       /* first: a cast turns a node into its item */
	uint32_t key;
	int in;
};

static struct item items[N];
static struct avl_tree tree;
static int linked;

static struct item *item_of(struct avl_node *n)
{
	return (struct item *)n;
}

static void add(struct item *x)
{
	struct avl_node *parent = NULL;
	int dir = AVL_LEFT;
	for (struct avl_node *n = tree.root; n; n = n->child[dir]) {
		parent = n;
		dir = x->key < item_of(n)->key ? AVL_LEFT : AVL_RIGHT;
	}
	avl_link(&tree, &x->node, parent, dir);
	x->in = 1;
	linked++;
}

static void drop(struct item *x)
{
	avl_remove(&tree, &x->node);
	x->in = 0;
	linked--;
}

/* Checks n's subtree; returns its height, or -1 after a failed check. */
static int check_subtree(const struct avl_node *n, const struct avl_node *parent, int *count)
{
	if (!n)
		return 0;
	int ok = n->parent == parent;
	int l = check_subtree(n->child[AVL_LEFT], n, count), r = check_subtree(n->child[AVL_RIGHT], n, count);
	if (l < 0 || r < 0)
		return -1;
	int h = (l > r ? l : r) + 1;
	ok = ok && n->height == h && l - r <= 1 && r - l <= 1;
	(*count)++;
	return ok ? h : -1;
}

static int check_tree(void)
{
	int count = 0;
	int h = check_subtree(tree.root, NULL, &count);
	if (h < 0 || count != linked)
		return 0;
	/* in key order forwards and backwards, every node once */
	int n = 0;
	uint32_t prev = 0;
	for (struct avl_node *p = avl_first(&tree); p; p = avl_step(p, AVL_RIGHT), n++) {
		if (n && item_of(p)->key < prev)
			return 0;
		prev = item_of(p)->key;
	}
	if (n != linked)
		return 0;
	n = 0;
	for (struct avl_node *p = avl_last(&tree); p; p = avl_step(p, AVL_LEFT), n++) {
		if (n && item_of(p)->key > prev)
			return 0;
		prev = item_of(p)->key;
	}
	/* AVL: height < 1.45 log2(n + 2) */
	int lg = 0;
	while ((2u << lg) <= (unsigned)linked + 2)
		lg++;
	return n == linked && (!tree.root || tree.root->height * 100 <= 145 * (lg + 1));
}

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void reset(void)
{
	memset(items, 0, sizeof(items));
	memset(&tree, 0, sizeof(tree));
	linked = 0;
}

/* Keys in one order, then half of them removed, checked every 64 steps
 * and at the end, then emptied from the front (as the reassembly drains). */
static void run_order(uint32_t (*key_of)(uint32_t i))
{
	reset();
	int ok = 1;
	for (uint32_t i = 0; i < N; i++) {
		items[i].key = key_of(i);
		add(&items[i]);
		if (i % 64 == 0)
			ok &= check_tree();
	}
	CHECK(ok && check_tree());
	for (uint32_t i = 0; i < N; i += 2) {
		drop(&items[(i * 7) % N]);
		if (i % 128 == 0)
			ok &= check_tree();
	}
	CHECK(ok && check_tree());
	struct avl_node *f;
	while ((f = avl_first(&tree))) {
		drop(item_of(f));
		if (linked % 61 == 0)
			ok &= check_tree();
	}
	CHECK(ok && linked == 0 && !tree.root);
}

static uint32_t ascending(uint32_t i) { return i; }
static uint32_t descending(uint32_t i) { return N - i; }
static uint32_t zigzag(uint32_t i) { return i % 2 ? i : 2 * N - i; }
static uint32_t random_key(uint32_t i) { (void)i; return next_rand(); }

static void test_ascending(void) { run_order(ascending); }
static void test_descending(void) { run_order(descending); }
static void test_zigzag(void) { run_order(zigzag); }
static void test_random(void) { run_order(random_key); }

/* Random adds and removes interleaved, equal keys included. */
static void test_churn(void)
{
	reset();
	int ok = 1;
	for (int step = 0; step < 20000; step++) {
		struct item *x = &items[next_rand() % N];
		if (x->in) {
			drop(x);
		} else {
			x->key = next_rand() % 512;
			add(x);
		}
		if (step % 97 == 0)
			ok &= check_tree();
	}
	CHECK(ok && check_tree());
}

/* A window sliding up the keys: added at the top, removed at the bottom,
 * as the reassembly buffers segments ahead and delivers the first. */
static void test_window(void)
{
	reset();
	int ok = 1;
	uint32_t next = 0;
	for (int step = 0; step < 20000; step++) {
		struct item *x = &items[step % N];
		if (x->in)
			drop(item_of(avl_first(&tree)));
		if (!x->in) {
			x->key = next++;
			add(x);
		}
		if (step % 89 == 0)
			ok &= check_tree();
	}
	CHECK(ok && check_tree() && linked == N);
}

int main(void)
{
	static const struct check_case cases[] = {
		{ "ascending", test_ascending },
		{ "descending", test_descending },
		{ "zigzag", test_zigzag },
		{ "random", test_random },
		{ "churn", test_churn },
		{ "window", test_window },
	};
	return check_cases("test_avl", cases, sizeof(cases) / sizeof(cases[0]), NULL);
}
