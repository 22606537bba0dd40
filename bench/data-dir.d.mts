/** A fresh directory under bench/.data/ (see data-dir.mjs). */
export function benchDataDir(prefix: string): string;
/** Removes bench/.data/ (after the last section; see data-dir.mjs). */
export function removeBenchData(): void;
