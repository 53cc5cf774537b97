// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avl.h - an intrusive AVL tree (core-private): a node lives inside its
 * owner's struct, the owner orders the nodes (it says where a new one goes:
 * under which node, on which side), and the tree keeps itself balanced, so
 * that a walk from the root to any node, adding and removing cost
 * O(log n) whatever order the nodes come in.
 */
#ifndef IWS_CORE_AVL_H
#define IWS_CORE_AVL_H

#include <stddef.h>

enum { AVL_LEFT = 0, AVL_RIGHT = 1 };

struct avl_node {
	struct avl_node *child[2];  /* AVL_LEFT: before it, AVL_RIGHT: after it */
	struct avl_node *parent;
	int height;                 /* of the subtree it roots: 1 for a leaf */
};

struct avl_tree {
	struct avl_node *root;
	struct avl_node *end[2];    /* the first (AVL_LEFT) and the last (AVL_RIGHT) */
};

/* Link n as parent's child on side `dir` (a place that is empty; parent
 * NULL: the root of an empty tree), where the order puts n; then
 * rebalance. */
void avl_link(struct avl_tree *t, struct avl_node *n, struct avl_node *parent, int dir);

/* Take n out of the tree and rebalance. */
void avl_remove(struct avl_tree *t, struct avl_node *n);

/* In order: the first, the last (NULL: none). */
static inline struct avl_node *avl_first(const struct avl_tree *t)
{
	return t->end[AVL_LEFT];
}

static inline struct avl_node *avl_last(const struct avl_tree *t)
{
	return t->end[AVL_RIGHT];
}

/* The node next to n on side dir: AVL_RIGHT the one after it, AVL_LEFT the
 * one before (NULL: none). */
struct avl_node *avl_step(const struct avl_node *n, int dir);

#endif
