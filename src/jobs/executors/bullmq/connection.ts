// Connecting BullMQ to Redis through our RESP client (redis-client.ts): BullMQ 6 takes any client
// of its IRedisClient interface through RedisConnection.clientFactory, so every Queue, Worker and
// QueueEvents of this process gets one, from connection options that carry the Redis URL.
import { RedisConnection, type IRedisClient, type RedisOptions } from 'bullmq';
import { RedisClient } from './redis-client.js';
import { parseRedisUrl } from './redis-url.js';

let installed = false;

/** Connection options for BullMQ classes; the first call installs the client factory. */
export function bullConnection(url: string): RedisOptions {
  parseRedisUrl(url); // a wrong URL stops here, with the message naming what is expected
  if (!installed) {
    RedisConnection.clientFactory = (options) => new RedisClient(options as { url: string }) as unknown as IRedisClient;
    installed = true;
  }
  return { url } as RedisOptions;
}

/** A client of our own (heartbeats, control messages, subscriptions). */
export function redisClient(url: string, connectionName: string): RedisClient {
  return new RedisClient({ url, connectionName });
}
