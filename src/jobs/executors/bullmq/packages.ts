// BullMQ and its Redis driver are optional peer dependencies: a production install of pesim does
// not pull them (with their own dependencies they weigh ≈ 16 MB) unless the project installs them
// for the Redis back end. Every module of this folder that imports them is loaded through here.

/** What a user runs to get the Redis back end's packages. */
export const QUEUE_PACKAGES_INSTALL = 'npm install bullmq ioredis';

/**
 * `load()` (a dynamic import of a module that imports bullmq or ioredis), with a missing package
 * reported as what to install instead of Node's "Cannot find package".
 */
export async function importQueueModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw queuePackageError(error);
  }
}

/**
 * The error of a failed load: for a missing bullmq or ioredis (an import's "Cannot find package",
 * or a require's "Cannot find module", as a thread's module reports it), what to install instead.
 */
export function queuePackageError(error: unknown): Error {
  const message = (error as Error | undefined)?.message ?? '';
  const missing = /Cannot find (?:package|module) '(bullmq|ioredis)'/.exec(message)?.[1];
  if (!missing) return error as Error;
  return new Error(`the Redis queue back end needs the packages bullmq and ioredis, and ${missing} is not installed: run \`${QUEUE_PACKAGES_INSTALL}\` in the project that uses pesim`, { cause: error });
}
