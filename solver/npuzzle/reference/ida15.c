/* A plain C reference for `python -m solver bench --fifteen`: the same search in C.
 *
 * IDA* over the same additive 6-6-3 pattern databases (built here, with the
 * blank's region tracked, indexed by sum(cell_i << 4*i)) and the same mirror
 * lookup, children visited in the same order (least heuristic first), nodes
 * counted the same way. The Python side compiles this with `cc -O2` when a
 * compiler is present and prints the ratio of the two times.
 *
 * Input on stdin: one board per line, 16 numbers row by row, 0 the blank.
 * Output: "tables <seconds>" then per board "<moves> <nodes> <seconds>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 16
#define UNSEEN 255

static const int GROUPS[3][6] = {{1, 2, 5, 6, 9, 10}, {3, 4, 7, 8, 11, 12}, {13, 14, 15}};
static const int SIZES[3] = {6, 6, 3};

static int nb[CELLS][4], nbn[CELLS];
static int32_t *reach;
static int8_t *rname;
static uint8_t *tab[3];
static int grp[CELLS], sh[CELLS], mgrp[CELLS], msh[CELLS], mcell[CELLS];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void neighbours(void) {
    for (int z = 0; z < CELLS; z++) {
        int r = z / 4, c = z % 4, k = 0;
        if (r > 0) nb[z][k++] = z - 4;
        if (r < 3) nb[z][k++] = z + 4;
        if (c > 0) nb[z][k++] = z - 1;
        if (c < 3) nb[z][k++] = z + 1;
        nbn[z] = k;
    }
}

static void regions(void) {
    reach = calloc((size_t)CELLS << CELLS, sizeof *reach);
    rname = calloc((size_t)CELLS << CELLS, 1);
    int stack[CELLS];
    for (int mask = 0; mask < (1 << CELLS); mask++)
        for (int s = 0; s < CELLS; s++) {
            if (!((mask >> s) & 1) || reach[mask * CELLS + s]) continue;
            int seen = 1 << s, top = 0;
            stack[top++] = s;
            while (top) {
                int z = stack[--top];
                for (int j = 0; j < nbn[z]; j++) {
                    int q = nb[z][j];
                    if (((mask >> q) & 1) && !((seen >> q) & 1)) { seen |= 1 << q; stack[top++] = q; }
                }
            }
            int low = __builtin_ctz(seen);
            for (int c = 0; c < CELLS; c++)
                if ((seen >> c) & 1) { reach[mask * CELLS + c] = seen; rname[mask * CELLS + c] = low; }
        }
}

static uint8_t *build(const int *group, int k) {
    size_t states = ((size_t)1 << (4 * k)) * CELLS;
    uint8_t *dist = malloc(states);
    memset(dist, UNSEEN, states);
    int64_t *cur = malloc(sizeof(int64_t) * 16), *nxt;
    size_t ncur = 0, cap = 16;
    int64_t home = 0;
    int taken = 0;
    for (int i = 0; i < k; i++) { home += (int64_t)(group[i] - 1) << (4 * i); taken |= 1 << (group[i] - 1); }
    int full = (1 << CELLS) - 1;
    int64_t start = home * CELLS + rname[(full & ~taken) * CELLS + CELLS - 1];
    dist[start] = 0;
    cur[ncur++] = start;
    for (int depth = 1; ncur; depth++) {
        size_t nn = 0, ncap = ncur * 2 + 16;
        nxt = malloc(sizeof(int64_t) * ncap);
        for (size_t s = 0; s < ncur; s++) {
            int64_t placement = cur[s] / CELLS;
            int region = cur[s] % CELLS, pos[6], tk = 0;
            for (int i = 0; i < k; i++) { pos[i] = (placement >> (4 * i)) & 15; tk |= 1 << pos[i]; }
            int free_ = full & ~tk, r = reach[free_ * CELLS + region];
            for (int i = 0; i < k; i++) {
                int c = pos[i];
                for (int j = 0; j < nbn[c]; j++) {
                    int t = nb[c][j];
                    if (!((r >> t) & 1)) continue;
                    int after = free_ ^ (1 << t) ^ (1 << c);
                    int64_t child = (placement + ((int64_t)(t - c) << (4 * i))) * CELLS + rname[after * CELLS + c];
                    if (dist[child] == UNSEEN) {
                        dist[child] = depth;
                        if (nn == ncap) { ncap *= 2; nxt = realloc(nxt, sizeof(int64_t) * ncap); }
                        nxt[nn++] = child;
                    }
                }
            }
        }
        free(cur);
        cur = nxt;
        ncur = nn;
        (void)cap;
    }
    free(cur);
    size_t places = (size_t)1 << (4 * k);
    uint8_t *table = malloc(places);
    for (size_t p = 0; p < places; p++) {
        uint8_t best = UNSEEN;
        for (int r = 0; r < CELLS; r++) if (dist[p * CELLS + r] < best) best = dist[p * CELLS + r];
        table[p] = best;
    }
    free(dist);
    return table;
}

static int board[CELLS], path[256];
static int64_t idx[6];
static long long nodes;
static int bound, nextb;

static int dfs(int z, int g, int parent, int hd, int hm) {
    int cq[4], ch[4], chd[4], chm[4], n = 0, g1 = g + 1;
    for (int j = 0; j < nbn[z]; j++) {
        int q = nb[z][j];
        if (q == parent) continue;
        int t = board[q], gi = grp[t], mg = mgrp[t];
        int64_t old = idx[gi], mold = idx[3 + mg];
        int nd = hd - tab[gi][old] + tab[gi][old + ((int64_t)(z - q) << sh[t])];
        int nm = hm - tab[mg][mold] + tab[mg][mold + ((int64_t)(mcell[z] - mcell[q]) << msh[t])];
        int h = nd > nm ? nd : nm, f = g1 + h;
        if (f > bound) { if (f < nextb) nextb = f; continue; }
        int i = n;
        while (i > 0 && ch[i - 1] > h) { cq[i] = cq[i - 1]; ch[i] = ch[i - 1]; chd[i] = chd[i - 1]; chm[i] = chm[i - 1]; i--; }
        cq[i] = q; ch[i] = h; chd[i] = nd; chm[i] = nm; n++;
    }
    for (int i = 0; i < n; i++) {
        int q = cq[i], t = board[q];
        int64_t ds = (int64_t)(z - q) << sh[t], ms = (int64_t)(mcell[z] - mcell[q]) << msh[t];
        if (chd[i] == 0) { path[g] = q; return g1; }
        nodes++;
        board[z] = t; board[q] = 0; idx[grp[t]] += ds; idx[3 + mgrp[t]] += ms;
        int found = dfs(q, g1, z, chd[i], chm[i]);
        board[q] = t; board[z] = 0; idx[grp[t]] -= ds; idx[3 + mgrp[t]] -= ms;
        if (found) { path[g] = q; return found; }
    }
    return 0;
}

int main(void) {
    neighbours();
    double t0 = now();
    regions();
    int mtile[CELLS];
    for (int c = 0; c < CELLS; c++) mcell[c] = (c % 4) * 4 + c / 4;
    mtile[0] = 0;
    for (int t = 1; t < CELLS; t++) mtile[t] = mcell[t - 1] + 1;
    for (int g = 0; g < 3; g++) {
        tab[g] = build(GROUPS[g], SIZES[g]);
        for (int i = 0; i < SIZES[g]; i++) { grp[GROUPS[g][i]] = g; sh[GROUPS[g][i]] = 4 * i; }
    }
    for (int t = 1; t < CELLS; t++) { mgrp[t] = grp[mtile[t]]; msh[t] = sh[mtile[t]]; }
    printf("tables %.3f\n", now() - t0);
    fflush(stdout);
    int cells[CELLS];
    while (1) {
        for (int c = 0; c < CELLS; c++) if (scanf("%d", &cells[c]) != 1) return 0;
        memset(idx, 0, sizeof idx);
        int z0 = 0;
        for (int c = 0; c < CELLS; c++) {
            int t = cells[c];
            board[c] = t;
            if (!t) { z0 = c; continue; }
            idx[grp[t]] += (int64_t)c << sh[t];
            idx[3 + mgrp[t]] += (int64_t)mcell[c] << msh[t];
        }
        int hd = 0, hm = 0;
        for (int g = 0; g < 3; g++) { hd += tab[g][idx[g]]; hm += tab[g][idx[3 + g]]; }
        double t1 = now();
        nodes = 0;
        int length = 0;
        bound = hd > hm ? hd : hm;
        if (bound) while (1) {
            nextb = 1 << 30;
            length = dfs(z0, 0, -1, hd, hm);
            if (length) break;
            bound = nextb;
        }
        printf("%d %lld %.4f\n", length, nodes, now() - t1);
        fflush(stdout);
    }
}
