// Redis URLs: redis://[user[:password]@]host[:port][/db], read into the address ioredis dials.
// Checked here rather than left to ioredis, which takes almost any string as some address: a
// wrong URL stops a service's start-up or `pesim worker` with a message saying what is expected.

export interface RedisAddress {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
}

/** redis://[user[:password]@]host[:port][/db]; anything else is an error naming what is expected. */
export function parseRedisUrl(url: string): RedisAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the Redis URL must look like redis://host:6379/0, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'redis:') throw new Error(`the Redis URL must start with redis:// (TLS is not supported), got ${JSON.stringify(url)}`);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`the database in the Redis URL must be a number such as /0, got ${JSON.stringify(parsed.pathname)}`);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db,
  };
}
