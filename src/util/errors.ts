// What went wrong, as text: an Error's message, or anything else thrown as a
// string; and a file system error in a few words.

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Why a file could not be opened or read: "no such file", "permission denied", "it is a directory", or the error's text. */
export function fileProblem(e: unknown): string {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return errorText(e);
}
