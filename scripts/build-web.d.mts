/** Bundles web/ into dist/web (see build-web.mjs); typeCheck runs tsc over web/ first (default true). */
export function buildWeb(options?: { typeCheck?: boolean }): Promise<{ dir: string; files: string[] }>;
