/* Reads FENs (one per line) and prints what Debian's Fathom says of each:
   wdl0 (TB_LOSS..TB_WIN minus 2, at a fifty-move counter of 0), wdl50 (from
   the root probe, the counter counted), dtz (|DTZ| of the root probe), or
   "fail", "mate", "stalemate". */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
#include <tbprobe.h>

int main(int argc, char **argv) {
  if (argc < 2 || !tb_init(argv[1])) { fprintf(stderr, "usage: oracle <path>\n"); return 2; }
  fprintf(stderr, "TB_LARGEST %u\n", TB_LARGEST);
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    uint64_t white = 0, black = 0, kings = 0, queens = 0, rooks = 0, bishops = 0, knights = 0, pawns = 0;
    char *p = line;
    int rank = 7, file = 0;
    for (; *p && *p != ' '; p++) {
      if (*p == '/') { rank--; file = 0; continue; }
      if (isdigit((unsigned char)*p)) { file += *p - '0'; continue; }
      uint64_t bit = 1ULL << (rank * 8 + file);
      if (isupper((unsigned char)*p)) white |= bit; else black |= bit;
      switch (tolower((unsigned char)*p)) {
        case 'k': kings |= bit; break; case 'q': queens |= bit; break; case 'r': rooks |= bit; break;
        case 'b': bishops |= bit; break; case 'n': knights |= bit; break; case 'p': pawns |= bit; break;
      }
      file++;
    }
    char side = 'w', castle[8] = "-", ep[8] = "-";
    int half = 0, full = 1;
    sscanf(p, " %c %7s %7s %d %d", &side, castle, ep, &half, &full);
    unsigned eps = 0;
    if (ep[0] != '-') eps = (ep[1] - '1') * 8 + (ep[0] - 'a');
    int turn = side == 'w';
    unsigned w0 = tb_probe_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, 0, 0, eps, turn);
    unsigned r = tb_probe_root(white, black, kings, queens, rooks, bishops, knights, pawns, half, 0, eps, turn, NULL);
    char a[16], b[32];
    if (w0 == TB_RESULT_FAILED) strcpy(a, "fail"); else sprintf(a, "%d", (int)w0 - 2);
    if (r == TB_RESULT_FAILED) strcpy(b, "fail");
    else if (r == TB_RESULT_CHECKMATE) strcpy(b, "mate");
    else if (r == TB_RESULT_STALEMATE) strcpy(b, "stalemate");
    else sprintf(b, "%d %u", (int)TB_GET_WDL(r) - 2, TB_GET_DTZ(r));
    printf("%s %s\n", a, b);
  }
  return 0;
}
