// Entry of the single executable: the command line, with workers and the
// book embedded (sea-setup.ts runs first: imports are evaluated in order).

import './sea-setup.js';
import './main.js';
