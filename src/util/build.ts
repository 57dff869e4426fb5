// Which source a bundle was built from: scripts/build.mjs writes the git
// commit into the bundle (with "-modified" when src/ or the lockfile had
// uncommitted changes), the commit's date, and whether the commit is the
// release of the package's version (tagged v<version>). Code run from source
// (tsx) says "source".

declare const KESTREL_COMMIT: string | undefined;
declare const KESTREL_COMMIT_DATE: string | undefined;
declare const KESTREL_RELEASE: boolean | undefined;

/** The commit the running bundle was built from, or "source". */
export function buildCommit(): string {
  return typeof KESTREL_COMMIT === 'string' && KESTREL_COMMIT !== '' ? KESTREL_COMMIT : 'source';
}

/** The commit's date as YYYYMMDD, or '' from source. */
export function buildDate(): string {
  return typeof KESTREL_COMMIT_DATE === 'string' ? KESTREL_COMMIT_DATE : '';
}

/** Whether the bundle was built from the commit tagged v<version>, unmodified. */
export function isReleaseBuild(): boolean {
  return typeof KESTREL_RELEASE === 'boolean' && KESTREL_RELEASE;
}
