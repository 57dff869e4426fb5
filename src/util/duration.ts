// Durations as clocks write them: "1:02:03", or "2:03" without the hours.

/** Whole seconds (rounded by the caller) as h:mm:ss, or m:ss below an hour when `hours` is 'when-needed'. */
export function clockText(seconds: number, hours: 'always' | 'when-needed'): string {
  const total = Math.max(0, seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 || hours === 'always' ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
