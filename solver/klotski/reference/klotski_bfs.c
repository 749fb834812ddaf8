/* A plain C reference for `python -m solver bench`: a Klotski breadth-first search in C.
 *
 * The key is 128 bits of bit planes: each cell holds a code (0, or shape class
 * + 1 on a piece's top-left; same-shaped pieces share a class), and bit j of
 * every code forms plane j, the planes laid end to end. A move XORs the
 * piece's code off its old top-left and onto the new one; a class's top-left
 * cells are the AND of its code's planes, found for all cells at once. The
 * visited set is open addressing in one flat array (linear probing, at most
 * half full, grown by doubling); the queue is a second array. Moves as in the
 * library: step (one cell), straight (any distance in one line) or piece (any
 * distance, round corners, along free cells); the goal is the 2x2 piece's
 * top-left at row H-2, column (W-2)/2.
 *
 * Usage: klotski_bfs BOARD METRIC. Breadth-first from BOARD until the first
 * goal or the whole group is exhausted. Output: one line
 * "<positions> <distance or -1> <seconds> <peak KiB>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct { uint64_t lo, hi; } key_t128;

static int H, W, N, NCLASS, PLANES, METRIC; /* metric: 0 step, 1 straight, 2 piece */
static int CH[16], CW[16];                  /* class shapes, sorted like the library's */
static uint64_t cover[16 * 64];
static key_t128 flip[16 * 64];
static int step_to[16 * 64 * 4];
static key_t128 goal_need, goal_want;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static key_t128 code_bits(int code, int cell) {
    key_t128 k = {0, 0};
    for (int j = 0; j < PLANES; j++) {
        if (!(code >> j & 1)) continue;
        int b = j * N + cell;
        if (b < 64) k.lo |= 1ULL << b; else k.hi |= 1ULL << (b - 64);
    }
    return k;
}

static uint64_t plane(key_t128 k, int j) {
    int s = j * N;
    uint64_t v;
    if (s >= 64) v = k.hi >> (s - 64);
    else if (s == 0) v = k.lo;
    else v = (k.lo >> s) | (k.hi << (64 - s));
    return N < 64 ? v & ((1ULL << N) - 1) : v;
}

static inline uint64_t slot_of(key_t128 k, uint64_t mask) {
    return ((k.lo ^ (k.hi * 0xBF58476D1CE4E5B9ULL)) * 0x9E3779B97F4A7C15ULL >> 24) & mask;
}

static key_t128 *table, *queue;
static uint64_t table_mask, queue_cap, count;

static int insert(key_t128 k) { /* 1 when new */
    uint64_t h = slot_of(k, table_mask);
    for (;;) {
        key_t128 t = table[h];
        if (t.lo == 0 && t.hi == 0) { table[h] = k; return 1; }
        if (t.lo == k.lo && t.hi == k.hi) return 0;
        h = (h + 1) & table_mask;
    }
}

static void grow(void) {
    queue_cap *= 2;
    queue = realloc(queue, queue_cap * sizeof(key_t128));
    free(table);
    table_mask = 2 * queue_cap - 1;
    table = calloc(table_mask + 1, sizeof(key_t128));
    if (!queue || !table) { fprintf(stderr, "out of memory\n"); exit(3); }
    for (uint64_t i = 0; i < count; i++) insert(queue[i]);
}

static int is_goal(key_t128 k) {
    return (k.lo & goal_need.lo) == goal_want.lo && (k.hi & goal_need.hi) == goal_want.hi;
}

static int cmp_shape(const void *a, const void *b) {
    const int *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: klotski_bfs BOARD step|straight|piece\n"); return 2; }
    METRIC = !strcmp(argv[2], "step") ? 0 : !strcmp(argv[2], "straight") ? 1 : 2;
    char grid[64];
    const char *s = argv[1];
    H = 1; W = 0; N = 0;
    for (; *s; s++) {
        if (*s == '/') { H++; continue; }
        if (N >= 64) { fprintf(stderr, "board too big\n"); return 2; }
        grid[N++] = *s;
    }
    W = N / H;
    /* pieces: label -> bounding box */
    int top[128], bot[128], left[128], right[128], seen[128] = {0};
    for (int p = 0; p < N; p++) {
        int c = (unsigned char)grid[p];
        if (c == '.') continue;
        int r = p / W, q = p % W;
        if (!seen[c]) { seen[c] = 1; top[c] = bot[c] = r; left[c] = right[c] = q; }
        if (r > bot[c]) bot[c] = r;
        if (q < left[c]) left[c] = q;
        if (q > right[c]) right[c] = q;
    }
    int shapes[64][2], nshapes = 0, goal_label = -1;
    for (int c = 0; c < 128; c++) {
        if (!seen[c]) continue;
        int h = bot[c] - top[c] + 1, w = right[c] - left[c] + 1, dup = 0;
        if (h == 2 && w == 2) goal_label = c;
        for (int i = 0; i < nshapes; i++) dup |= shapes[i][0] == h && shapes[i][1] == w;
        if (!dup) { shapes[nshapes][0] = h; shapes[nshapes][1] = w; nshapes++; }
    }
    if (goal_label < 0) { fprintf(stderr, "no 2x2 piece\n"); return 2; }
    qsort(shapes, nshapes, sizeof shapes[0], cmp_shape);
    NCLASS = nshapes;
    PLANES = 0;
    while ((1 << PLANES) <= NCLASS) PLANES++;
    if (PLANES * N > 128) { fprintf(stderr, "key does not fit in 128 bits\n"); return 2; }
    for (int k = 0; k < NCLASS; k++) { CH[k] = shapes[k][0]; CW[k] = shapes[k][1]; }
    memset(step_to, -1, sizeof step_to);
    static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};
    for (int k = 0; k < NCLASS; k++)
        for (int r = 0; r + CH[k] <= H; r++)
            for (int c = 0; c + CW[k] <= W; c++) {
                int g = k * N + r * W + c;
                uint64_t m = 0;
                for (int i = 0; i < CH[k]; i++)
                    for (int j = 0; j < CW[k]; j++) m |= 1ULL << ((r + i) * W + c + j);
                cover[g] = m;
                flip[g] = code_bits(k + 1, r * W + c);
                for (int d = 0; d < 4; d++) {
                    int r2 = r + DR[d], c2 = c + DC[d];
                    if (r2 >= 0 && c2 >= 0 && r2 + CH[k] <= H && c2 + CW[k] <= W)
                        step_to[g * 4 + d] = k * N + r2 * W + c2;
                }
            }
    int goal_class = 0;
    for (int k = 0; k < NCLASS; k++) if (CH[k] == 2 && CW[k] == 2) goal_class = k;
    int goal_top = (H - 2) * W + (W - 2) / 2;
    goal_need = code_bits((1 << PLANES) - 1, goal_top);
    goal_want = code_bits(goal_class + 1, goal_top);
    key_t128 start = {0, 0};
    for (int c = 0; c < 128; c++) {
        if (!seen[c]) continue;
        int h = bot[c] - top[c] + 1, w = right[c] - left[c] + 1, k = 0;
        while (CH[k] != h || CW[k] != w) k++;
        key_t128 b = code_bits(k + 1, top[c] * W + left[c]);
        start.lo |= b.lo; start.hi |= b.hi;
    }

    double t0 = now();
    queue_cap = 1 << 14;
    queue = malloc(queue_cap * sizeof(key_t128));
    table_mask = 2 * queue_cap - 1;
    table = calloc(table_mask + 1, sizeof(key_t128));
    count = 0;
    queue[count++] = start;
    insert(start);
    uint64_t head = 0, layer_end = 1;
    int depth = 0, found = is_goal(start) ? 0 : -1;
    uint64_t full = N == 64 ? ~0ULL : (1ULL << N) - 1;
    int spots[64];
    while (found < 0 && head < count) {
        if (head == layer_end) { depth++; layer_end = count; }
        key_t128 key = queue[head++];
        uint64_t pl[4] = {0, 0, 0, 0}, occ = 0, tops[16];
        for (int j = 0; j < PLANES; j++) pl[j] = plane(key, j);
        for (int k = 0; k < NCLASS; k++) {
            uint64_t m = full;
            for (int j = 0; j < PLANES; j++) m &= ((k + 1) >> j & 1) ? pl[j] : ~pl[j];
            tops[k] = m;
            for (uint64_t r = m; r; r &= r - 1) occ |= cover[k * N + __builtin_ctzll(r)];
        }
        for (int k = 0; k < NCLASS && found < 0; k++)
            for (uint64_t rt = tops[k]; rt && found < 0; rt &= rt - 1) {
                int p = __builtin_ctzll(rt), g = k * N + p, nspots = 0, done = 0;
                uint64_t rest = occ ^ cover[g], visited = 1ULL << p;
                key_t128 base = {key.lo ^ flip[g].lo, key.hi ^ flip[g].hi};
                int children[256], nchildren = 0;
                if (METRIC == 2) {
                    spots[nspots++] = g;
                    while (done < nspots) {
                        int x = spots[done++];
                        for (int d = 0; d < 4; d++) {
                            int g2 = step_to[x * 4 + d];
                            if (g2 < 0 || (cover[g2] & rest)) continue;
                            uint64_t bit = 1ULL << (g2 - k * N);
                            if (visited & bit) continue;
                            visited |= bit;
                            spots[nspots++] = g2;
                            children[nchildren++] = g2;
                        }
                    }
                } else {
                    for (int d = 0; d < 4; d++)
                        for (int x = g;;) {
                            int g2 = step_to[x * 4 + d];
                            if (g2 < 0 || (cover[g2] & rest)) break;
                            children[nchildren++] = g2;
                            if (METRIC == 0) break;
                            x = g2;
                        }
                }
                for (int i = 0; i < nchildren; i++) {
                    key_t128 child = {base.lo ^ flip[children[i]].lo, base.hi ^ flip[children[i]].hi};
                    if (count + 1 > queue_cap) grow();
                    if (!insert(child)) continue;
                    queue[count++] = child;
                    if (is_goal(child)) { found = depth + 1; break; }
                }
            }
    }
    double seconds = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%llu %d %.4f %ld\n", (unsigned long long)count, found, seconds, ru.ru_maxrss);
    return 0;
}
