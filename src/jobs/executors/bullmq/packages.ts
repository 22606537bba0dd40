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
    const { code, message } = error as NodeJS.ErrnoException;
    const missing = code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '(bullmq|ioredis)'/.exec(message)?.[1] : undefined;
    if (!missing) throw error;
    throw new Error(`the Redis queue back end needs the packages bullmq and ioredis, and ${missing} is not installed: run \`${QUEUE_PACKAGES_INSTALL}\` in the project that uses pesim`, { cause: error });
  }
}
