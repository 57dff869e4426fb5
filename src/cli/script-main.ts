// Entry of the self-contained script (scripts/build.mjs --script): the
// command line, with workers and the book embedded (script-setup.ts runs
// first: imports are evaluated in order).

import './script-setup.js';
import './main.js';
