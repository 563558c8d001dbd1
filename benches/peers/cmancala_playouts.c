// Random Kalah(6,4) playouts with the board code of the C peer CMancala (GitHub
// LifesLight/CMancala, standard capture): the games of
// `cargo run --release -p mancala-core --example playouts -- kalah-standard GAMES`
// (SplitMix64 seed 1, the move drawn by multiply-shift), copy-make like the engine.
// Build in a copy of the peer's repository (see docs/playouts.md):
//   gcc -O3 -march=native -flto -std=gnu2x -Iinclude -DMANCALA_VERSION='"12.2"' \
//       -DEGDB_BACKEND_NAME='"RAM"' -o playouts cmancala_playouts.c src/logic/board.c \
//       src/logic/solver/cache.c src/logic/utility.c -lm
//   ./playouts 200000
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "logic/board.h"

static uint64_t state;

static inline uint64_t next(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: playouts GAMES\n");
        return 2;
    }
    long games = atol(argv[1]), n = 0;
    state = 1;
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long g = 0; g < games; g++) {
        Board board;
        configBoard(&board, 4);
        for (int ply = 0; ply < 2000 && !isBoardTerminal(&board); ply++) {
            uint8_t moves[6];
            int k = 0, lo = board.color == 1 ? 0 : 7;
            for (int i = lo; i < lo + 6; i++)
                if (board.cells[i]) moves[k++] = i;
            uint8_t mv = moves[(uint64_t)(((__uint128_t)next() * k) >> 64)];
            Board after = board;
            makeMoveOnBoardClassic(&after, mv);
            processBoardTerminal(&after);
            board = after;
            n++;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("cmancala kalah 6x4 standard: %ld moves in %ld games, %.3f s CPU, %.1f M moves/s\n",
           n, games, s, n / s / 1e6);
    return 0;
}
