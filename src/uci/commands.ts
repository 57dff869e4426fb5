// The commands the UCI loop knows, and what `help` tells a person about
// them.

/** The first words of the lines the UCI loop knows (anything before them on a line is skipped). */
export const UCI_COMMANDS: ReadonlySet<string> = new Set([
  'uci',
  'debug',
  'isready',
  'setoption',
  'register',
  'ucinewgame',
  'position',
  'go',
  'stop',
  'ponderhit',
  'quit',
  'd',
  'eval',
  'bench',
  'help',
]);

/** What `help` prints: for a person who started the engine in a terminal. */
export const HELP_LINES = [
  'Kestrel speaks UCI, the protocol of chess GUIs. Commands, one a line:',
  '  uci                          names the engine and lists its options',
  '  isready                      answers readyok once everything sent before is done',
  '  setoption name <name> value <value>   for example: setoption name Hash value 64',
  '  ucinewgame                   a new game: forgets what earlier searches learnt',
  '  position startpos|fen <fen> [moves <move>...]   moves in UCI notation (e2e4, e7e8q)',
  '  go depth <n>|nodes <n>|movetime <ms>|wtime <ms> btime <ms> [winc <ms> binc <ms>]|infinite',
  '                               searches and answers bestmove; also: go perft <n>, searchmoves <moves>',
  '  stop                         ends a search: bestmove comes at once',
  '  quit                         ends the program',
  'Also: d (the board), eval (the evaluation explained), bench [depth]. `kestrel --help` lists the command-line tools.',
];
