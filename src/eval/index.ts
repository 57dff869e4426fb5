// The evaluation's public face: what the UCI layer uses.

export { evaluate } from './evaluate.js';
export { explainEval } from './explain.js';
