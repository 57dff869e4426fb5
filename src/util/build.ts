// Which source a bundle was built from: scripts/build.mjs writes the git
// commit into the bundle (with "-modified" when src/ or the lockfile had
// uncommitted changes). Code run from source (tsx) says "source".

declare const KESTREL_COMMIT: string | undefined;

/** The commit the running bundle was built from, or "source". */
export function buildCommit(): string {
  return typeof KESTREL_COMMIT === 'string' && KESTREL_COMMIT !== '' ? KESTREL_COMMIT : 'source';
}
