/** A fresh directory under bench/.data/ (see data-dir.mjs). */
export function benchDataDir(prefix: string): string;
