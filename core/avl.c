// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An intrusive AVL tree (see avl.h): every node's two subtrees differ in
 * height by at most one, so the height is below 1.45 log2(n + 2) and every
 * walk from the root is that short. Adding or removing a node rebalances
 * on the way back up, with at most two rotations per level, and stops at
 * the first subtree whose height did not change (nothing above it can).
 * Left and right are a side index (AVL_LEFT, AVL_RIGHT), so each mirror
 * pair of cases is one piece of code.
 */
#include <stdbool.h>

#include "avl.h"

static int height(const struct avl_node *n)
{
	return n ? n->height : 0;
}

/* n's height from its children; true if it changed. */
static bool refresh(struct avl_node *n)
{
	int l = height(n->child[AVL_LEFT]), r = height(n->child[AVL_RIGHT]);
	int h = (l > r ? l : r) + 1;
	bool changed = n->height != h;
	n->height = h;
	return changed;
}

/* Make parent's pointer to old (or the root) point to new. */
static void replace_child(struct avl_tree *t, struct avl_node *parent, const struct avl_node *old,
			  struct avl_node *new)
{
	if (!parent)
		t->root = new;
	else
		parent->child[parent->child[AVL_RIGHT] == old] = new;
	if (new)
		new->parent = parent;
}

/* x's child on side !dir takes its place, x going down on side dir;
 * returns that child. */
static struct avl_node *rotate(struct avl_tree *t, struct avl_node *x, int dir)
{
	struct avl_node *y = x->child[!dir];
	replace_child(t, x->parent, x, y);
	x->child[!dir] = y->child[dir];
	if (x->child[!dir])
		x->child[!dir]->parent = x;
	y->child[dir] = x;
	x->parent = y;
	refresh(x);
	refresh(y);
	return y;
}

/* From n up: heights and balance, until a subtree's height comes out as it
 * was. */
static void rebalance(struct avl_tree *t, struct avl_node *n)
{
	while (n) {
		bool changed = refresh(n);
		int bal = height(n->child[AVL_LEFT]) - height(n->child[AVL_RIGHT]);
		if (bal > 1 || bal < -1) {
			int heavy = bal > 1 ? AVL_LEFT : AVL_RIGHT;
			struct avl_node *c = n->child[heavy];
			/* the heavy child leaning the other way: straighten it first */
			if (height(c->child[heavy]) < height(c->child[!heavy]))
				rotate(t, c, heavy);
			n = rotate(t, n, !heavy);
			changed = true;
		}
		if (!changed)
			return;
		n = n->parent;
	}
}

void avl_link(struct avl_tree *t, struct avl_node *n, struct avl_node *parent, int dir)
{
	n->child[AVL_LEFT] = n->child[AVL_RIGHT] = NULL;
	n->parent = parent;
	n->height = 1;
	for (int side = 0; side < 2; side++)
		if (!parent || (parent == t->end[side] && dir == side))
			t->end[side] = n;
	if (parent)
		parent->child[dir] = n;
	else
		t->root = n;
	rebalance(t, parent);
}

/* The last node of n's subtree on side dir. */
static struct avl_node *outermost(struct avl_node *n, int dir)
{
	while (n && n->child[dir])
		n = n->child[dir];
	return n;
}

void avl_remove(struct avl_tree *t, struct avl_node *n)
{
	for (int side = 0; side < 2; side++)
		if (n == t->end[side])
			t->end[side] = avl_step(n, !side);
	struct avl_node *from;      /* the lowest node whose subtree changed */
	struct avl_node *l = n->child[AVL_LEFT], *r = n->child[AVL_RIGHT];
	if (l && r) {
		/* Its successor (no left child) takes its place, and height. */
		struct avl_node *s = outermost(r, AVL_LEFT);
		if (s->parent != n) {
			from = s->parent;
			from->child[AVL_LEFT] = s->child[AVL_RIGHT];
			if (s->child[AVL_RIGHT])
				s->child[AVL_RIGHT]->parent = from;
			s->child[AVL_RIGHT] = r;
			r->parent = s;
		} else {
			from = s;
		}
		s->child[AVL_LEFT] = l;
		l->parent = s;
		replace_child(t, n->parent, n, s);
		s->height = n->height;
	} else {
		from = n->parent;
		replace_child(t, n->parent, n, l ? l : r);
	}
	n->child[AVL_LEFT] = n->child[AVL_RIGHT] = n->parent = NULL;
	rebalance(t, from);
}

struct avl_node *avl_step(const struct avl_node *n, int dir)
{
	if (n->child[dir])
		return outermost(n->child[dir], !dir);
	while (n->parent && n->parent->child[dir] == n)
		n = n->parent;
	return n->parent;
}
