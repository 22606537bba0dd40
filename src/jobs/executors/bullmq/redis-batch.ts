// Transactions (MULTI/EXEC) and pipelines of the Redis client, in the shape BullMQ expects from
// ioredis: `[error, value]` per command. Scripts a batch calls are loaded on the connection first.
import type { RedisClient } from './redis-client.js';
import type { CommandArgument, RespValue } from './resp.js';

/** A flat [field, value, ...] reply as an object. */
export function pairs(flat: RespValue): Record<string, string> {
  const out: Record<string, string> = {};
  const list = (flat ?? []) as string[];
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]] = list[i + 1];
  return out;
}

/** MULTI/EXEC transaction or plain pipeline, with ioredis's `[error, value][]` result. */
export class RedisBatch {
  private readonly commands: CommandArgument[][] = [];
  private readonly loads: { args: CommandArgument[]; sha: string }[] = [];
  private readonly transforms: ((value: RespValue) => unknown)[] = [];

  constructor(private readonly client: RedisClient, private readonly atomic: boolean) {}

  private add(args: CommandArgument[], transform: (value: RespValue) => unknown = (v) => v): this {
    this.commands.push(args);
    this.transforms.push(transform);
    return this;
  }
  hgetall(key: string): this {
    return this.add(['HGETALL', key], pairs);
  }
  hset(key: string, data: Record<string, string | number>): this {
    return this.add(['HSET', key, ...Object.entries(data).flat()]);
  }
  hscan(key: string, cursor: string | number, options: { COUNT?: number } = {}): this {
    return this.add(['HSCAN', key, cursor, ...(options.COUNT ? ['COUNT', options.COUNT] : [])]);
  }
  smembers(key: string): this {
    return this.add(['SMEMBERS', key]);
  }
  sscan(key: string, cursor: string | number, options: { COUNT?: number } = {}): this {
    return this.add(['SSCAN', key, cursor, ...(options.COUNT ? ['COUNT', options.COUNT] : [])]);
  }
  zrange(key: string, start: number, end: number): this {
    return this.add(['ZRANGE', key, start, end]);
  }
  lrange(key: string, start: number, end: number): this {
    return this.add(['LRANGE', key, start, end]);
  }
  llen(key: string): this {
    return this.add(['LLEN', key]);
  }
  del(...keys: string[]): this {
    return keys.length === 0 ? this : this.add(['DEL', ...keys]);
  }
  runCommand(name: string, args: unknown[]): this {
    const { load, call, sha } = this.client.scriptCall(name, args);
    if (load && !this.loads.some((l) => l.sha === sha)) this.loads.push({ args: load, sha });
    return this.add(call);
  }

  async exec(): Promise<[Error | null, unknown][] | null> {
    for (const load of this.loads) {
      await this.client.call(...load.args);
      this.client.markLoaded(load.sha);
    }
    if (this.commands.length === 0) return [];
    if (!this.atomic) {
      const replies = await Promise.all(this.commands.map((args) => this.client.send(args)));
      return replies.map((reply, i) => (reply instanceof Error ? [reply, null] : [null, this.transforms[i](reply)]));
    }
    const sent = [this.client.send(['MULTI']), ...this.commands.map((args) => this.client.send(args))];
    const exec = this.client.send(['EXEC']);
    const queued = await Promise.all(sent);
    const failed = queued.find((r) => r instanceof Error);
    const results = await exec;
    if (failed instanceof Error) throw failed;
    if (results instanceof Error) throw results;
    if (results === null) return null;
    return (results as RespValue[]).map((reply, i) => (reply instanceof Error ? [reply, null] : [null, this.transforms[i](reply)]));
  }
}
