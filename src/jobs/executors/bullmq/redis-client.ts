// A Redis client for BullMQ's IRedisClient interface, over one TCP connection speaking RESP2.
// Commands issued while disconnected wait and go out once the connection is ready; a lost
// connection fails the commands in flight (BullMQ retries its own loops) and reconnects with a
// short back-off, so a restarted Redis is picked up again. Lua scripts run by EVALSHA, loaded on
// each connection before first use (a restarted Redis has lost its script cache).
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ConnectionClosedError } from 'bullmq';
import { pairs, RedisBatch } from './redis-batch.js';
import { parseRedisUrl, type RedisAddress } from './redis-url.js';
import { encodeCommand, RespParser, type CommandArgument, type RespValue } from './resp.js';

interface Pending {
  args: CommandArgument[];
  /** A bulk-string reply is wanted as bytes. */
  binary?: boolean;
  resolve(value: RespValue): void;
  reject(error: Error): void;
}

interface Script {
  sha: string;
  lua: string;
  numberOfKeys: number;
}

type Status = 'wait' | 'connecting' | 'ready' | 'reconnecting' | 'end';

function argument(value: unknown): CommandArgument {
  if (Buffer.isBuffer(value)) return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'number' ? value : String(value);
}

export class RedisClient extends EventEmitter {
  status: Status = 'wait';
  readonly isCluster = false;
  options: Record<string, unknown>;
  /** Subscribed channels (their messages are emitted as 'message' (channel, text), and renewed on reconnect). */
  private readonly channels = new Set<string>();
  private readonly address: RedisAddress;
  private readonly scripts = new Map<string, Script>();
  private loaded = new Set<string>();
  private socket: Socket | undefined;
  private readonly parser = new RespParser();
  private inFlight: Pending[] = [];
  private waiting: Pending[] = [];
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(options: { url: string; connectionName?: string } & Record<string, unknown>) {
    super();
    this.setMaxListeners(0);
    this.options = { ...options };
    this.address = parseRedisUrl(options.url);
    this.open();
  }

  connect(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    if (this.status === 'end' || this.status === 'wait') {
      this.ended = false;
      this.open();
    }
    return new Promise((resolve) => this.once('ready', () => resolve()));
  }

  disconnect(reconnect = false): void {
    this.ended = !reconnect;
    if (!reconnect) this.status = 'end';
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.destroy();
    if (!this.socket && !reconnect) this.finishEnd();
  }

  async quit(): Promise<string> {
    if (this.status === 'ready') await this.send(['QUIT']).catch(() => undefined);
    this.disconnect(false);
    return 'OK';
  }

  duplicate(overrides: Record<string, unknown> = {}): RedisClient {
    const copy = new RedisClient({ ...(this.options as { url: string }), ...overrides });
    for (const [name, script] of this.scripts) copy.defineCommand(name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
    return copy;
  }

  /** Sends one command (queued until the connection is ready). */
  send(args: CommandArgument[], binary = false): Promise<RespValue> {
    if (this.ended) return Promise.reject(new ConnectionClosedError('Connection is closed.'));
    return new Promise((resolve, reject) => {
      const pending: Pending = { args, resolve, reject, binary };
      if (this.status === 'ready') this.write(pending);
      else this.waiting.push(pending);
    });
  }

  /** Sends one command and fails with the server's error as a rejection. */
  async call(...args: CommandArgument[]): Promise<RespValue> {
    const reply = await this.send(args);
    if (reply instanceof Error) throw reply;
    return reply;
  }

  /** GET of a value as bytes (null when the key does not exist). */
  async getBuffer(key: string): Promise<Buffer | null> {
    const reply = await this.send(['GET', key], true);
    if (reply instanceof Error) throw reply;
    return reply as Buffer | null;
  }

  // Subscriptions (this connection then serves only them).
  async subscribe(channel: string): Promise<void> {
    this.channels.add(channel);
    await this.call('SUBSCRIBE', channel);
  }

  // Scripts
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void {
    const sha = createHash('sha1').update(definition.lua).digest('hex');
    this.scripts.set(name, { sha, lua: definition.lua, numberOfKeys: definition.numberOfKeys });
    (this as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => this.runCommand(name, args);
  }

  /** EVALSHA arguments of a script call; the script is loaded first if this connection has not. */
  scriptCall(name: string, args: unknown[]): { load?: CommandArgument[]; call: CommandArgument[]; sha: string } {
    const script = this.scripts.get(name);
    if (!script) throw new Error(`unknown Redis script ${name}`);
    const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    const call: CommandArgument[] = ['EVALSHA', script.sha, script.numberOfKeys, ...list.map(argument)];
    return { load: this.loaded.has(script.sha) ? undefined : ['SCRIPT', 'LOAD', script.lua], call, sha: script.sha };
  }

  async runCommand(name: string, args: unknown[]): Promise<unknown> {
    const { load, call, sha } = this.scriptCall(name, args);
    if (load) {
      await this.call(...load);
      this.loaded.add(sha);
    }
    return this.call(...call);
  }

  multi(): RedisBatch {
    return new RedisBatch(this, true);
  }

  pipeline(): RedisBatch {
    return new RedisBatch(this, false);
  }

  markLoaded(sha: string): void {
    this.loaded.add(sha);
  }

  // Commands BullMQ uses
  async hgetall(key: string): Promise<Record<string, string>> {
    return pairs(await this.call('HGETALL', key));
  }
  async hget(key: string, field: string): Promise<string | null> {
    return (await this.call('HGET', key, field)) as string | null;
  }
  async hmget(key: string, ...fields: string[]): Promise<(string | null)[]> {
    return (await this.call('HMGET', key, ...fields)) as (string | null)[];
  }
  async hset(key: string, data: Record<string, string | number>): Promise<number> {
    return (await this.call('HSET', key, ...Object.entries(data).flat())) as number;
  }
  async hdel(key: string, ...fields: string[]): Promise<number> {
    return (await this.call('HDEL', key, ...fields)) as number;
  }
  async hexists(key: string, field: string): Promise<number> {
    return (await this.call('HEXISTS', key, field)) as number;
  }
  async get(key: string): Promise<string | null> {
    return (await this.call('GET', key)) as string | null;
  }
  async set(key: string, value: string | number, options: { PX?: number; EX?: number } = {}): Promise<string | null> {
    const expiry = options.PX !== undefined ? ['PX', options.PX] : options.EX !== undefined ? ['EX', options.EX] : [];
    return (await this.call('SET', key, value, ...expiry)) as string | null;
  }
  async del(...keys: string[]): Promise<number> {
    return keys.length === 0 ? 0 : ((await this.call('DEL', ...keys)) as number);
  }
  async zrange(key: string, start: number, end: number, options: { WITHSCORES?: boolean } = {}): Promise<string[]> {
    return (await this.call('ZRANGE', key, start, end, ...(options.WITHSCORES ? ['WITHSCORES'] : []))) as string[];
  }
  async zrevrange(key: string, start: number, end: number, options: { WITHSCORES?: boolean } = {}): Promise<string[]> {
    return (await this.call('ZREVRANGE', key, start, end, ...(options.WITHSCORES ? ['WITHSCORES'] : []))) as string[];
  }
  async zcard(key: string): Promise<number> {
    return (await this.call('ZCARD', key)) as number;
  }
  async zscore(key: string, member: string): Promise<string | null> {
    return (await this.call('ZSCORE', key, member)) as string | null;
  }
  async lrange(key: string, start: number, end: number): Promise<string[]> {
    return (await this.call('LRANGE', key, start, end)) as string[];
  }
  async llen(key: string): Promise<number> {
    return (await this.call('LLEN', key)) as number;
  }
  async ltrim(key: string, start: number, end: number): Promise<string> {
    return (await this.call('LTRIM', key, start, end)) as string;
  }
  async lpos(key: string, value: string): Promise<number | null> {
    return (await this.call('LPOS', key, value)) as number | null;
  }
  async smembers(key: string): Promise<string[]> {
    return (await this.call('SMEMBERS', key)) as string[];
  }
  async xadd(key: string, id: string, fields: Record<string, string | number>, options: { MAXLEN?: number; approximate?: boolean } = {}): Promise<string> {
    const trim = options.MAXLEN !== undefined ? ['MAXLEN', ...(options.approximate === false ? [] : ['~']), options.MAXLEN] : [];
    return (await this.call('XADD', key, ...trim, id, ...Object.entries(fields).flat())) as string;
  }
  async xread(streams: { key: string; id: string }[], options: { BLOCK?: number; COUNT?: number } = {}): Promise<unknown> {
    const head: CommandArgument[] = ['XREAD'];
    if (options.COUNT !== undefined) head.push('COUNT', options.COUNT);
    if (options.BLOCK !== undefined) head.push('BLOCK', options.BLOCK);
    return this.call(...head, 'STREAMS', ...streams.map((s) => s.key), ...streams.map((s) => s.id));
  }
  async xtrim(key: string, strategy: 'MAXLEN', threshold: number, options: { approximate?: boolean } = {}): Promise<number> {
    return (await this.call('XTRIM', key, strategy, ...(options.approximate === false ? [] : ['~']), threshold)) as number;
  }
  async bzpopmin(key: string, timeout: number): Promise<[string, string, string] | null> {
    return (await this.call('BZPOPMIN', key, timeout)) as [string, string, string] | null;
  }
  async info(): Promise<string> {
    return (await this.call('INFO')) as string;
  }
  async clientSetName(name: string): Promise<unknown> {
    return this.call('CLIENT', 'SETNAME', name);
  }
  async clientList(): Promise<string> {
    return (await this.call('CLIENT', 'LIST')) as string;
  }
  async clientInfo(): Promise<string> {
    return (await this.call('CLIENT', 'INFO')) as string;
  }
  async scan(cursor: string | number, options: { MATCH?: string; COUNT?: number } = {}): Promise<[string, string[]]> {
    const extra: CommandArgument[] = [];
    if (options.MATCH) extra.push('MATCH', options.MATCH);
    if (options.COUNT) extra.push('COUNT', options.COUNT);
    return (await this.call('SCAN', cursor, ...extra)) as [string, string[]];
  }
  scanStream(options: { match: string; count?: number }): Readable {
    let cursor = '0';
    let done = false;
    const stream = new Readable({
      objectMode: true,
      read: () => {
        if (done) return;
        this.scan(cursor, { MATCH: options.match, COUNT: options.count }).then(([next, keys]) => {
          cursor = next;
          done = next === '0';
          stream.push(keys);
          if (done) stream.push(null);
        }, (error: Error) => stream.destroy(error));
      },
    });
    return stream;
  }

  // Connection handling
  private open(): void {
    this.status = this.attempts === 0 ? 'connecting' : 'reconnecting';
    const socket = connect({ host: this.address.host, port: this.address.port });
    socket.setNoDelay(true);
    this.socket = socket;
    socket.on('connect', () => void this.handshake());
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => {
      if (this.listenerCount('error') > 0 && !this.ended) this.emit('error', error);
    });
    socket.on('close', () => this.closed(socket));
  }

  private async handshake(): Promise<void> {
    const setup: CommandArgument[][] = [];
    if (this.address.password) setup.push(this.address.username ? ['AUTH', this.address.username, this.address.password] : ['AUTH', this.address.password]);
    if (this.address.db !== 0) setup.push(['SELECT', this.address.db]);
    if (typeof this.options.connectionName === 'string') setup.push(['CLIENT', 'SETNAME', this.options.connectionName]);
    for (const channel of this.channels) setup.push(['SUBSCRIBE', channel]);
    try {
      for (const args of setup) {
        const reply = await new Promise<RespValue>((resolve, reject) => this.write({ args, resolve, reject }));
        if (reply instanceof Error) throw reply;
      }
    } catch (error) {
      if (this.listenerCount('error') > 0) this.emit('error', error);
      this.socket?.destroy();
      return;
    }
    this.attempts = 0;
    this.status = 'ready';
    this.emit('connect');
    this.emit('ready');
    const waiting = this.waiting;
    this.waiting = [];
    for (const pending of waiting) this.write(pending);
  }

  private write(pending: Pending): void {
    this.inFlight.push(pending);
    this.socket!.write(encodeCommand(pending.args));
  }

  private receive(chunk: Buffer): void {
    let replies: RespValue[];
    try {
      replies = this.parser.push(chunk, (index) => this.inFlight[index]?.binary === true);
    } catch (error) {
      this.emit('error', error);
      this.socket?.destroy();
      return;
    }
    for (const reply of replies) {
      if (this.channels.size > 0 && Array.isArray(reply) && reply[0] === 'message') {
        this.emit('message', reply[1], reply[2]);
        continue;
      }
      this.inFlight.shift()?.resolve(reply);
    }
  }

  private closed(socket: Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.parser.reset();
    this.loaded = new Set();
    const lost = this.inFlight;
    this.inFlight = [];
    for (const pending of lost) pending.reject(new ConnectionClosedError('Connection is closed.'));
    if (this.ended) {
      this.finishEnd();
      return;
    }
    this.status = 'reconnecting';
    this.emit('close');
    this.emit('reconnecting');
    const delay = Math.min(50 * 2 ** this.attempts++, 1000);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  private finishEnd(): void {
    this.status = 'end';
    const waiting = this.waiting;
    this.waiting = [];
    for (const pending of waiting) pending.reject(new ConnectionClosedError('Connection is closed.'));
    this.emit('close');
    this.emit('end');
  }
}
