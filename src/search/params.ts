// Every tuned number of the search and its time management, in one place.
// Each has a one-line comment that ends with the range a tuner (SPSA) may
// move it in, written `[min, max]`; test/search/params.test.ts reads this
// file and checks that every value lies in its range. True constants (mate
// scores, array sizes, poll intervals) stay where they are used.

// --- Iterative deepening and aspiration windows ------------------------------
/** Aspiration windows from this depth on (shallower iterations search the full window). [2, 8] */
export const ASPIRATION_MIN_DEPTH = 4;
/** First half-width of the aspiration window, centipawns; it grows after each failure (ASPIRATION_GROWTH). [8, 60] */
export const ASPIRATION_DELTA = 25;
/** After each failure the half-width is multiplied by this (rounded down). [1.2, 3] */
export const ASPIRATION_GROWTH = 1.5;
/** After each fail high the window's next search is a ply shallower, at most this many plies in all. [0, 3] */
export const ASPIRATION_FAIL_HIGH_PLIES_MAX = 2;

// --- Time management -------------------------------------------------------------
/** Moves the remaining clock is divided by when the GUI gives no movestogo. [15, 60] */
export const TIME_MOVES_TO_GO = 25;
/** movestogo counts as at most this many moves. [20, 80] */
export const TIME_MOVES_TO_GO_MAX = 40;
/** Share of the increment added to each move's soft budget. [0.5, 1.5] */
export const TIME_INCREMENT_SHARE = 1;
/** Fixed reserve never planned on, milliseconds (plus TIME_RESERVE_INCREMENTS increments). [20, 300] */
export const TIME_RESERVE_MS = 100;
/** Increments kept in reserve besides TIME_RESERVE_MS. [0, 20] */
export const TIME_RESERVE_INCREMENTS = 5;
/** The hard limit is at most this many soft budgets. [2, 8] */
export const TIME_HARD_SOFT_RATIO = 4;
/** The hard limit is at most this share of the remaining clock. [0.2, 0.6] */
export const TIME_HARD_CLOCK_SHARE = 0.4;
/** ... or this share when the next time control is one move away (movestogo 1). [0.5, 0.95] */
export const TIME_HARD_LAST_MOVE_SHARE = 0.8;
/** No new iteration once this share of the (scaled) soft budget is spent: the next one would rarely finish. [0.4, 1] */
export const TIME_ITERATION_SHARE = 0.6;
/** Soft budget scale added per change of best move (decaying by TIME_INSTABILITY_DECAY per iteration). [0, 1] */
export const TIME_INSTABILITY_SCALE = 0.4;
/** How much of the best-move instability carries into the next iteration. [0.3, 0.9] */
export const TIME_INSTABILITY_DECAY = 0.6;
/** A score that fell by more than this (centipawns) since the last iteration... [10, 100] */
export const TIME_SCORE_DROP = 30;
/** ...scales the soft budget by this. [1, 2] */
export const TIME_SCORE_DROP_SCALE = 1.3;
// The soft budget is scaled by TIME_NODES_SLOPE * s + TIME_NODES_BASE, s the share
// of the search's nodes spent on moves other than the best: a best move that
// took nearly every node is clear (less time), one that shared them is not.
/** Slope of the node-share scale. [0.5, 3] */
export const TIME_NODES_SLOPE = 2;
/** Node-share scale when the best move took every node. [0.3, 1.5] */
export const TIME_NODES_BASE = 0.8;

// --- Pruning before the moves ---------------------------------------------------
/** Internal iterative reduction: a node without a hash move loses a ply from this depth on. [3, 8] */
export const IIR_MIN_DEPTH = 4;
/** Reverse futility pruning up to this depth. [4, 12] */
export const RFP_MAX_DEPTH = 8;
/** Reverse futility: margin per ply of depth left, centipawns. [40, 160] */
export const RFP_MARGIN = 80;
/** Reverse futility: an improving node counts this many plies less for its margin. [0, 2] */
export const RFP_IMPROVING_PLIES = 1;
/** Razoring up to this depth. [1, 5] */
export const RAZOR_MAX_DEPTH = 3;
/** Razoring: margin per ply of depth left, centipawns. [100, 500] */
export const RAZOR_MARGIN = 250;
/** Null-move pruning from this depth on. [2, 5] */
export const NMP_MIN_DEPTH = 3;
/** Null-move reduction: this many plies... [2, 5] */
export const NMP_BASE_REDUCTION = 3;
/** ...plus one per this many plies of depth... [2, 8] */
export const NMP_DEPTH_DIVISOR = 4;
/** ...plus one per this many centipawns the estimate stands above beta... [100, 400] */
export const NMP_EVAL_DIVISOR = 200;
/** ...at most this many times. [1, 5] */
export const NMP_EVAL_MAX = 3;

// --- Pruning and reductions of moves ---------------------------------------------
/** Late-move, futility and SEE pruning of moves up to this depth. [4, 12] */
export const MOVE_PRUNING_MAX_DEPTH = 8;
/** Late-move pruning: quiet moves tried before the rest are skipped, LMP_BASE + depth^2... [1, 8] */
export const LMP_BASE = 3;
/** ...divided by this (rounded down) when the node is not improving. [1, 3] */
export const LMP_NOT_IMPROVING_DIVISOR = 2;
/** Futility pruning of quiet moves: base margin, centipawns... [30, 250] */
export const FUTILITY_BASE = 100;
/** ...plus this per ply of depth left. [40, 200] */
export const FUTILITY_MARGIN = 100;
/** ...unless the move's history (butterfly plus continuations) is at least this. [2000, 20000] */
export const FUTILITY_HISTORY_LIMIT = 12000;
/** SEE pruning: a quiet move may lose at most this per ply of depth by static exchange. [20, 150] */
export const SEE_QUIET_MARGIN = 60;
/** SEE pruning: a capture may lose at most this times the depth left squared. [10, 60] */
export const SEE_NOISY_MARGIN = 25;
/** Late-move reductions: base of the table LMR_BASE + ln(depth) ln(moveNumber) / LMR_DIVISOR. [0, 1.5] */
export const LMR_BASE = 0.75;
/** Late-move reductions: divisor of the table. [1.5, 3.5] */
export const LMR_DIVISOR = 2.25;
/** A quiet move's history (butterfly plus continuations) changes its reduction by one ply per this much. [2048, 16384] */
export const LMR_HISTORY_DIVISOR = 6144;
/** Late-move reductions from this depth on. [2, 5] */
export const LMR_MIN_DEPTH = 3;
/** Late-move reductions: plies less on the principal variation... [0, 2] */
export const LMR_PV_PLIES = 1;
/** ...plies more at an expected cut node... [0, 2] */
export const LMR_CUT_NODE_PLIES = 1;
/** ...plies more when the node is not improving... [0, 2] */
export const LMR_NOT_IMPROVING_PLIES = 1;
/** ...plies more when the hash move is a capture or promotion... [0, 2] */
export const LMR_TT_NOISY_PLIES = 1;
/** ...plies less for a move that gives check. [0, 2] */
export const LMR_GIVES_CHECK_PLIES = 1;
/** Quiescence delta pruning: a capture whose victim plus this cannot reach alpha is skipped, centipawns. [50, 400] */
export const DELTA_MARGIN = 200;
/** Quiescence futility: when stand pat plus this is at most alpha, only captures that win material are searched. [50, 300] */
export const QS_FUTILITY_MARGIN = 150;

// --- Singular extensions -----------------------------------------------------------
/** Singular extensions from this depth on. [6, 10] */
export const SINGULAR_MIN_DEPTH = 8;
/** The hash entry must be at most this many plies shallower than the node. [1, 5] */
export const SINGULAR_TT_DEPTH_MARGIN = 3;
/** The bar the other moves must stay below: the table's score less this per ply of depth. [0.5, 3] */
export const SINGULAR_MARGIN = 1;
/** The other moves are searched to (depth - 1) / this (rounded down). [1.5, 4] */
export const SINGULAR_DEPTH_DIVISOR = 2;
/** Singular extensions only up to this many times the root depth in plies (keeps the tree finite). [1, 4] */
export const SINGULAR_MAX_PLY_FACTOR = 2;
/** Extend twice when the others stay this far (centipawns) below the bar. [5, 60] */
export const DOUBLE_EXTENSION_MARGIN = 20;
/** At most this many double extensions on one path. [2, 12] */
export const DOUBLE_EXTENSION_MAX = 6;

// --- Move ordering statistics -----------------------------------------------------
/** History scores stay within ±HISTORY_MAX (continuation history is an Int16Array: at most 32767). [8192, 32000] */
export const HISTORY_MAX = 16384;
/** Between searches the butterfly and capture histories are shifted right by this (1: halved). [0, 3] */
export const HISTORY_AGE_SHIFT = 1;
/** History bonus of a cutoff: HISTORY_BONUS_SLOPE * depth - HISTORY_BONUS_OFFSET, up to HISTORY_BONUS_MAX. [100, 600] */
export const HISTORY_BONUS_SLOPE = 300;
/** (see HISTORY_BONUS_SLOPE) [0, 500] */
export const HISTORY_BONUS_OFFSET = 250;
/** (see HISTORY_BONUS_SLOPE) [1000, 4000] */
export const HISTORY_BONUS_MAX = 2500;
/** A cutoff at a node whose static eval was at or below alpha (a surprise) teaches the histories as if this many plies deeper. [0, 2] */
export const HISTORY_LOW_EVAL_PLIES = 1;
/** Up to this depth, a cutoff by the first quiet move tried teaches the quiet histories nothing (killers still learn it). [0, 3] */
export const HISTORY_SKIP_MAX_DEPTH = 1;
/** The opponent's quiet move gains butterfly history of this times its side's static-eval gain (-(ours + its before)). [0, 30] */
export const EVAL_GAIN_HISTORY_SCALE = 10;
/** (see EVAL_GAIN_HISTORY_SCALE) that bonus or malus is at most this. [200, 3000] */
export const EVAL_GAIN_HISTORY_MAX = 1200;
/** When every move of a node fails low, the opponent's quiet move that led there gains this share of a cutoff's bonus. [0.25, 2.5] */
export const FAIL_LOW_HISTORY_SHARE = 1;
/** ...from this depth on. [1, 6] */
export const FAIL_LOW_HISTORY_MIN_DEPTH = 3;
/** Capture history adds its value shifted right by this to a capture's ordering score. [1, 5] */
export const CAPTURE_HISTORY_SHIFT = 3;
/** Most valuable victim: a capture's ordering score has the victim's exchange value times this. [2, 16] */
export const MVV_SCALE = 8;
/** Ordering score of an under-promotion relative to other noisy moves. [-4000, 0] */
export const UNDERPROMOTION_PENALTY = -2000;

// --- Correction history --------------------------------------------------------------
/** Corrections are bounded by this many centipawns. [16, 128] */
export const CORRECTION_MAX = 64;
/** A new result weighs min(depth + 1, CORRECTION_WEIGHT_MAX) / 256 against the entry. [4, 32] */
export const CORRECTION_WEIGHT_MAX = 16;

// --- Transposition table replacement -------------------------------------------------
/** A non-exact result does not overwrite an entry of this search that is more than this many plies deeper. [1, 6] */
export const TT_KEEP_DEPTH_MARGIN = 3;
/** Each search of age counts as this many plies of depth when choosing the entry to replace. [2, 16] */
export const TT_AGE_WEIGHT = 8;

// --- Monte Carlo tree search (the mcts drivers: mcts*.ts) ----------------------------------
/** PUCT: a child's score is Q + MCTS_CPUCT * P * sqrt(N_parent) / (1 + N_child), Q in [-1, 1]. [0.5, 5] */
export const MCTS_CPUCT = 1.5;
/** First-play urgency: an unvisited child counts as its parent's Q less this times sqrt(the visited children's priors). [0, 1.5] */
export const MCTS_FPU_REDUCTION = 0.3;
/** A score of s centipawns is worth sigmoid(s / this) as an expected score: the network's training scale. [200, 800] */
export const MCTS_VALUE_SCALE = 400;
/** Temperature of the softmax that turns the priors' logits into probabilities. [0.25, 4] */
export const MCTS_PRIOR_TEMPERATURE = 1;
/** Prior logit of the transposition table's move. [0.5, 6] */
export const MCTS_PRIOR_TT = 3;
/** Prior logit of a capture or promotion that does not lose material by static exchange... [0.5, 5] */
export const MCTS_PRIOR_GOOD_NOISY = 2;
/** ...plus its victim's exchange value divided by this (most valuable victim first). [200, 2000] */
export const MCTS_PRIOR_MVV_DIVISOR = 500;
/** Prior logit of a capture that loses material by static exchange. [-4, 0.5] */
export const MCTS_PRIOR_BAD_NOISY = -1;
/** Prior logit of an under-promotion. [-8, -0.5] */
export const MCTS_PRIOR_UNDERPROMOTION = -4;
/** Prior logit added to a move that gives check. [0, 2.5] */
export const MCTS_PRIOR_CHECK = 1;
/** A quiet move's history (butterfly plus the continuation of the last move) adds one logit per this much. [2048, 32768] */
export const MCTS_PRIOR_HISTORY_DIVISOR = 8192;
/** The short PVS that fills the table and the histories for the priors before the tree grows: at most this depth... [1, 12] */
export const MCTS_PRESEARCH_DEPTH = 8;
/** ...at most this many nodes... [0, 50000] */
export const MCTS_PRESEARCH_NODES = 4000;
/** ...and on a clock at most this share of the move's time (the soft budget, or movetime). [0.05, 0.5] */
export const MCTS_PRESEARCH_TIME_SHARE = 0.2;
/** Move choice: root moves with at least this share of the most visited one's visits are told apart by Q. [0.8, 1] */
export const MCTS_VISIT_TIE_SHARE = 0.95;
/** With a clock, the search stops after this share of the soft time budget (never after the hard limit). [0.5, 2] */
export const MCTS_TIME_SHARE = 1;
